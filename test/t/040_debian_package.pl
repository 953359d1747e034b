# The Debian package: scripts/build-deb.sh builds postgresql-<major>-simhash
# with pg_buildext and debhelper; the package holds the library, the control
# file and every install and upgrade script "make install" installs, and a
# server loads the extension from the package's files alone.
#
# Installing the package would write into the system's PostgreSQL directories,
# which the rest of the suite may be using, so the package is unpacked
# (dpkg-deb -x) into a temporary root instead, and Debian's server is pointed
# at it with extension_destdir (a Debian setting made for testing packages
# before they are installed).  "scripts/build-deb.sh --install" is the real
# "apt install ./....deb".
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use File::Basename;
use lib $FindBin::Bin;
use SimhashTest;

my $root = "$FindBin::Bin/../..";
my $current = default_version($root);

# Debian's own server is what the package is for; a run against another
# server build (scripts/matrix.sh, PG_CONFIG=...) may not have it installed.
my @majors = grep { -x "/usr/lib/postgresql/$_/bin/postgres" }
  map { basename($_) } glob('/usr/lib/postgresql/*');
plan skip_all => "no Debian PostgreSQL server is installed (/usr/lib/postgresql/*/bin/postgres)"
  unless @majors;

my $tmp = PostgreSQL::Test::Utils::tempdir();
my ($stdout, $stderr);
my $built = IPC::Run::run([ 'bash', "$root/scripts/build-deb.sh", "$tmp/dist" ],
	'>', \$stdout, '2>', \$stderr);
ok($built, 'scripts/build-deb.sh builds the packages') or diag("$stdout\n$stderr");
my @debs = glob("$tmp/dist/postgresql-*-simhash_*.deb");
ok(@debs > 0, 'at least one package: ' . join(' ', map { basename($_) } @debs));

# What "make install" installs into the extension directory.
my @sql = ("simhash--$current.sql",
	map { basename($_) } glob("$root/src/install/released/*.sql"), glob("$root/src/install/upgrade/*.sql"));

for my $deb (@debs)
{
	my ($major) = basename($deb) =~ /^postgresql-(\d+)-simhash_/;
	my $name = "postgresql-$major-simhash";
	my $version = `dpkg-deb -f '$deb' Version`;
	chomp $version;
	like($version, qr/^\Q$current\E-/, "$name: its version $version is the extension's $current");
	like(`dpkg-deb -f '$deb' Depends`, qr/\bpostgresql-$major\b/, "$name: depends on postgresql-$major");

	my %files = map { s{^\./}{/}r => 1 } split /\n/, `dpkg-deb --fsys-tarfile '$deb' | tar -t`;
	my @wanted = ("/usr/lib/postgresql/$major/lib/simhash.so",
		"/usr/share/postgresql/$major/extension/simhash.control",
		map { "/usr/share/postgresql/$major/extension/$_" } @sql);
	my @missing = grep { !$files{$_} } @wanted;
	is("@missing", '', "$name: holds the library, the control file and " . scalar(@sql) . ' SQL scripts');

  SKIP:
	{
		skip "Debian's PostgreSQL $major server is not installed", 5
		  unless -x "/usr/lib/postgresql/$major/bin/postgres";
		# (PostgreSQL 13's test modules cannot start another version's server)
		skip "these test modules cannot start another installation's server", 5
		  unless PostgreSQL::Test::Cluster->can('install_path');

		my $unpacked = "$tmp/root-$major";
		system('dpkg-deb', '-x', $deb, $unpacked) == 0 or die "dpkg-deb -x $deb failed";

		my $node = PostgreSQL::Test::Cluster->new("deb$major",
			install_path => "/usr/lib/postgresql/$major");
		$node->init;
		$node->append_conf('postgresql.conf', "extension_destdir = '$unpacked'\n");
		$node->start;

		is($node->safe_psql('postgres', 'CREATE EXTENSION simhash; SELECT simhash_version()'),
			$current, "$name: CREATE EXTENSION loads version $current");
		# The library this backend maps is the package's, not the system's.
		my $mapped = $node->safe_psql('postgres', q{
			SELECT simhash_version();
			SELECT string_agg(line, E'\n') FROM regexp_split_to_table(
			       pg_read_file('/proc/' || pg_backend_pid() || '/maps'), E'\n') line
			 WHERE line LIKE '%simhash.so'});
		like($mapped, qr{\Q$unpacked\E/usr/lib/postgresql/$major/lib/simhash\.so},
			"$name: the backend runs the package's simhash.so");

		# Fingerprints, the index and the planner rewrite work from the package.
		is($node->safe_psql('postgres', q{
			CREATE TABLE pages (id int PRIMARY KEY, body text,
			                    fp simhash GENERATED ALWAYS AS (simhash(body)) STORED);
			INSERT INTO pages (id, body)
			SELECT g, 'page ' || (g % 100) || ' ' || repeat(md5((g % 100)::text) || ' ', 4)
			  FROM generate_series(1, 2000) g;
			CREATE INDEX ON pages USING simhash (fp);
			SET enable_seqscan = off;
			SELECT count(*) FROM pages WHERE fp <-> (SELECT fp FROM pages WHERE id = 7) <= 3}),
			'20', "$name: a simhash index answers a radius query");
		is($node->safe_psql('postgres',
				q{SELECT simhash(text 'The quick brown fox jumps over the lazy dog')}),
			'8212868318d29267', "$name: the README's first fingerprint");

		# Each released version installs and updates from the package's scripts.
		my @released = released_versions($root);
		my $updated = join ' ', map {
			$node->safe_psql('postgres', qq{
				DROP EXTENSION simhash CASCADE;
				CREATE EXTENSION simhash VERSION '$_';
				ALTER EXTENSION simhash UPDATE;
				SELECT extversion FROM pg_extension WHERE extname = 'simhash'})
		} @released;
		is($updated, join(' ', ($current) x @released),
			"$name: released versions (@released) update to $current");
		$node->stop;
	}
}

done_testing();
