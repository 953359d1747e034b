# Logical replication of a table with a simhash_ball column, REPLICA IDENTITY
# FULL and no key: to apply an UPDATE or DELETE, the subscriber finds the old
# row by comparing every column with its type's default equality (the btree or
# hash opclass's "=", PostgreSQL's execReplication.c), so simhash_ball needs
# one, and it must tell balls apart by centre and by radius.  Both the text
# and the binary transfer formats are applied.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $publisher = PostgreSQL::Test::Cluster->new('publisher');
$publisher->init(allows_streaming => 'logical');
$publisher->start;
my $subscriber = PostgreSQL::Test::Cluster->new('subscriber');
$subscriber->init;
$subscriber->start;

# Rows that differ only in the ball's radius, only in its centre (once in the
# top bit, where signed and unsigned order part), or in whether it is NULL,
# with the same fingerprint and note; and random ones.
my $table = q{
	CREATE EXTENSION simhash;
	CREATE TABLE balls (fp simhash, ball simhash_ball, note text);
	ALTER TABLE balls REPLICA IDENTITY FULL;
};
$publisher->safe_psql('postgres', $table . q{
	INSERT INTO balls VALUES
		('0123456789abcdef', '0123456789abcdef/3', 'twin'),
		('0123456789abcdef', '0123456789abcdef/4', 'twin'),
		('0123456789abcdef', '8123456789abcdef/3', 'twin'),
		('0123456789abcdef', '0123456789abcdee/3', 'twin'),
		('0123456789abcdef', NULL, 'twin');
	INSERT INTO balls
	SELECT fp, simhash_ball(fp, g % 8 - 1), 'row ' || g
	  FROM (SELECT g, ((floor(random() * 4294967296)::bigint << 32)
	                   | floor(random() * 4294967296)::bigint)::simhash AS fp
	          FROM generate_series(1, 300) g) r;
	CREATE PUBLICATION pub FOR TABLE balls;
});
$subscriber->safe_psql('postgres', 'CREATE DATABASE bin');
my $connstr = $publisher->connstr . ' dbname=postgres';
# The binary option arrived in PostgreSQL 14 (before, both subscriptions
# apply in text) and disable_on_error in 15 (before, an apply error shows as
# a timeout in applied() instead of the error at once).
my $version = $subscriber->safe_psql('postgres', 'SHOW server_version_num');
for my $sub (['postgres', 'sub_text', 'false'], ['bin', 'sub_binary', 'true'])
{
	my ($db, $name, $binary) = @$sub;
	my @options;
	push @options, "binary = $binary" if $version >= 140000;
	push @options, 'disable_on_error = true' if $version >= 150000;
	my $with = @options ? 'WITH (' . join(', ', @options) . ')' : '';
	$subscriber->safe_psql($db, $table . qq{
		CREATE SUBSCRIPTION $name CONNECTION '$connstr' PUBLICATION pub $with;
	});
	$subscriber->wait_for_subscription_sync($publisher, $name, $db);
}

# Waits until the subscription has applied all the publisher wrote, and
# returns ''; or, when its apply worker stopped on an error (disable_on_error),
# returns the error.
sub applied
{
	my ($db, $name) = @_;
	my $lsn = $publisher->lsn('write');
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		return '' if $publisher->safe_psql('postgres', qq{
			SELECT '$lsn' <= replay_lsn AND state = 'streaming'
			  FROM pg_stat_replication WHERE application_name = '$name'}) eq 't';
		if ($subscriber->safe_psql($db,
				"SELECT NOT subenabled FROM pg_subscription WHERE subname = '$name'") eq 't')
		{
			my ($error) = slurp_file($subscriber->logfile) =~ /ERROR:\s+(.*)/;
			return $error // 'the subscription was disabled';
		}
		usleep(100_000);
	}
	die "timed out waiting for $name";
}

# The row count and a digest of every row as text (text needs no operator of
# the extension, so this runs on code without simhash_ball equality too).
my $rows = q{SELECT count(*) || ' ' || md5(string_agg(concat_ws(' ', fp, coalesce(ball::text, 'null'), note),
                                                  ',' ORDER BY fp::text, ball::text, note)) FROM balls};

# Each statement touches one row of each set of twins, chosen with the
# accessors (which main's code has too), and random rows.
my @steps = (
	[ 'INSERT', q{INSERT INTO balls VALUES ('fedcba9876543210', 'fedcba9876543210/2', 'new'),
	                                       ('fedcba9876543210', 'fedcba9876543210/2', 'new')} ],
	[ 'UPDATE of the radius', q{UPDATE balls SET ball = simhash_ball(simhash_ball_center(ball), 5)
	                             WHERE note = 'twin' AND simhash_ball_radius(ball) = 4} ],
	[ 'UPDATE of another column', q{UPDATE balls SET note = 'moved'
	                                 WHERE note = 'twin' AND simhash_ball_center(ball) = '8123456789abcdef'} ],
	[ 'UPDATE of random rows', q{UPDATE balls SET ball = simhash_ball(fp, simhash_ball_radius(ball) + 1)
	                              WHERE note LIKE 'row %' AND right(note, 1) IN ('1', '4')} ],
	[ 'DELETE', q{DELETE FROM balls WHERE note = 'twin' AND simhash_ball_center(ball) = '0123456789abcdee'} ],
	[ 'DELETE of random rows', q{DELETE FROM balls WHERE note LIKE 'row %' AND right(note, 1) IN ('2', '7')} ],
);
for my $sub (['postgres', 'sub_text'], ['bin', 'sub_binary'])
{
	my ($db, $name) = @$sub;
	is($subscriber->safe_psql($db, $rows), $publisher->safe_psql('postgres', $rows),
		"$name: the initial copy has the publisher's rows");
}
for my $step (@steps)
{
	my ($what, $sql) = @$step;
	$publisher->safe_psql('postgres', $sql);
	my $expected = $publisher->safe_psql('postgres', $rows);
	for my $sub (['postgres', 'sub_text'], ['bin', 'sub_binary'])
	{
		my ($db, $name) = @$sub;
		is(applied($db, $name), '', "$name: the $what is applied without error");
		is($subscriber->safe_psql($db, $rows), $expected,
			"$name: after the $what the subscriber has the publisher's rows");
	}
}

$subscriber->stop;
$publisher->stop;
done_testing();
