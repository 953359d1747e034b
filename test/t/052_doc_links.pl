# Every relative link of the documentation leads somewhere: in README.md,
# CONTRIBUTING.md, doc/*.md and the READMEs of src/ and test/, each
# [text](path) names a file or folder of the repository, and each #anchor a
# heading of its page (GitHub's anchors: lower case, punctuation dropped,
# spaces as hyphens).
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use File::Basename;
use File::Spec;

my $root = File::Spec->rel2abs("$FindBin::Bin/../..");
my @pages = grep { -f } map { "$root/$_" } ('README.md', 'CONTRIBUTING.md');
push @pages, sort(glob("$root/doc/*.md")), sort(glob("$root/src/*/README.md")),
  "$root/src/README.md", "$root/test/README.md";

my %anchors;    # page => { anchor => 1 }
sub anchors
{
	my ($page) = @_;
	return $anchors{$page} //= do {
		my $text = slurp_file($page) =~ s/^```.*?^```//gmsr;    # not inside code blocks
		my %a;
		for my $h ($text =~ /^#+\s+(.*?)\s*$/mg)
		{
			my $slug = lc $h;
			$slug =~ s/[^\w\- ]//g;
			$slug =~ s/ /-/g;
			$a{$slug} = 1;
		}
		\%a;
	};
}

my ($links, @broken) = (0);
for my $page (@pages)
{
	my $text = slurp_file($page) =~ s/^```.*?^```//gmsr;
	my $name = File::Spec->abs2rel($page, $root);
	for my $target ($text =~ /\]\(([^)\s]+)\)/g)
	{
		next if $target =~ m{^[a-z]+:};    # http:, https:, mailto:
		$links++;
		my ($path, $anchor) = split /#/, $target, 2;
		my $file = $path eq '' ? $page : File::Spec->rel2abs($path, dirname($page));
		if (!-e $file)
		{
			push @broken, "$name: $target (no such file)";
		}
		elsif (defined $anchor && $file =~ /\.md$/ && !anchors($file)->{$anchor})
		{
			push @broken, "$name: $target (no such heading)";
		}
	}
}
diag("broken link: $_") for @broken;
ok($links > 0 && !@broken, "$links relative links in " . scalar(@pages) . ' pages lead somewhere');

done_testing();
