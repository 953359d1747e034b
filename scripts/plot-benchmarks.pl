#!/usr/bin/env perl
# Draws the plots of doc/benchmarks.md from the tables in it, so that the
# numbers live in one place: doc/img/f1-by-k.svg (F1 of near-duplicate
# detection against the radius k, per option set and language) and
# doc/img/radius-query.svg (median time of a radius-3 query per method, log
# scale).  Plain SVG, no dependencies.  Run it after changing those tables:
#   perl scripts/plot-benchmarks.pl
use strict;
use warnings;
use FindBin;

my $root = "$FindBin::Bin/..";
my $doc = do { local $/; open my $fh, '<', "$root/doc/benchmarks.md" or die "$!"; <$fh> };

sub esc { my $s = shift; $s =~ s/&/&amp;/g; $s =~ s/</&lt;/g; $s =~ s/>/&gt;/g; return $s; }

sub write_svg
{
	my ($name, $w, $h, @body) = @_;
	open my $out, '>', "$root/doc/img/$name" or die "$name: $!";
	print $out qq{<svg xmlns="http://www.w3.org/2000/svg" width="$w" height="$h" viewBox="0 0 $w $h" }
	  . qq{font-family="sans-serif" font-size="12">\n<rect width="$w" height="$h" fill="white"/>\n},
	  @body, "</svg>\n";
	close $out;
	print "wrote doc/img/$name\n";
}

# --- F1 against k: rows "| name | lang | f1 f1 ... | P@3 | R@3 | F1@3 |"
my @series;
while ($doc =~ /^\| (\*\*default\*\*|[\w-]+)[^|]*\| (en|zh) \| ((?:[\d.]+ ){8}[\d.]+) \|/mg)
{
	my ($set, $lang, $f1) = ($1, $2, $3);
	$set =~ s/\*//g;
	push @series, { name => "$set ($lang)", lang => $lang, set => $set, f1 => [ split ' ', $f1 ] };
}
die "no F1 table found in doc/benchmarks.md\n" unless @series;
my %shown = map { $_ => 1 } qw(default words-tf words-binary shingles2-runs chars3-runs);
my @plot = grep { $shown{ $_->{set} } } @series;
my @colour = ('#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e');
my %colour_of;
my $c = 0;
$colour_of{$_} //= $colour[ $c++ % @colour ] for map { $_->{set} } @plot;

my ($W, $H, $L, $R, $T, $B) = (640, 380, 50, 170, 30, 40);
my $x = sub { $L + $_[0] / 8 * ($W - $L - $R) };
my $y = sub { $T + (1 - $_[0]) / 0.7 * ($H - $T - $B) };    # F1 from 0.3 to 1
my @svg = (qq{<text x="$L" y="18" font-weight="bold">F1 of near-duplicate detection against k (bench-fingerprint.sh)</text>\n});
for my $k (0 .. 8)
{
	my $px = $x->($k);
	push @svg, qq{<line x1="$px" y1="$T" x2="$px" y2="} . ($H - $B) . qq{" stroke="#eee"/>\n},
	  qq{<text x="$px" y="} . ($H - $B + 16) . qq{" text-anchor="middle">$k</text>\n};
}
for (my $f = 0.3; $f <= 1.0001; $f += 0.1)
{
	my $py = $y->($f);
	push @svg, qq{<line x1="$L" y1="$py" x2="} . ($W - $R) . qq{" y2="$py" stroke="#eee"/>\n},
	  sprintf(qq{<text x="%d" y="%.1f" text-anchor="end">%.1f</text>\n}, $L - 6, $py + 4, $f);
}
push @svg, sprintf(qq{<text x="%d" y="%d" text-anchor="middle">k (Hamming radius)</text>\n},
	($L + $W - $R) / 2, $H - 6);
my $ly = $T + 6;
for my $s (@plot)
{
	my $col = $colour_of{ $s->{set} };
	my $dash = $s->{lang} eq 'zh' ? ' stroke-dasharray="5,3"' : '';
	my $width = $s->{set} eq 'default' ? 3 : 1.5;
	my $points = join ' ', map { sprintf '%.1f,%.1f', $x->($_), $y->($s->{f1}[$_]) } 0 .. 8;
	push @svg, qq{<polyline points="$points" fill="none" stroke="$col" stroke-width="$width"$dash/>\n},
	  sprintf(qq{<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="$col" stroke-width="$width"$dash/>\n},
		$W - $R + 10, $ly, $W - $R + 34, $ly),
	  sprintf(qq{<text x="%d" y="%d">%s</text>\n}, $W - $R + 40, $ly + 4, esc($s->{name}));
	$ly += 18;
}
write_svg('f1-by-k.svg', $W, $H, @svg);

# --- radius-3 query, p50: the first "| radius 3, p50 / p95 |" row and its header
my ($header, $row) = $doc =~ /^(\|[^\n]*simhash index[^\n]*)\n\|[-| ]+\n\| radius 3, p50 \/ p95 \|([^\n]*)$/m
  or die "no radius-3 row found in doc/benchmarks.md\n";
my @methods = grep { /\S/ } map { s/^\s+|\s+$//gr } split /\|/, $header;
my @cells = map { s/\*//gr =~ s/^\s+|\s+$//gr } split /\|/, $row;
my @bars;
for my $i (0 .. $#methods)
{
	next unless ($cells[$i] // '') =~ /^([\d.,]+) \/ [\d.,]+ ms$/;
	push @bars, [ $methods[$i], $1 =~ s/,//gr ];
}
($W, $H, $L, $R, $T, $B) = (640, 60 + 34 * @bars, 150, 90, 34, 30);
my $lx = sub { $L + (log($_[0]) / log(10) + 2) / 5 * ($W - $L - $R) };    # 0.01 ms .. 1000 ms
@svg = (qq{<text x="10" y="18" font-weight="bold">Radius-3 query, median time, 10 M fingerprints (bench-index.sh; log scale)</text>\n});
for my $e (-2 .. 3)
{
	my $px = $lx->(10**$e);
	push @svg, qq{<line x1="$px" y1="$T" x2="$px" y2="} . ($H - $B) . qq{" stroke="#ddd"/>\n},
	  qq{<text x="$px" y="} . ($H - $B + 16) . qq{" text-anchor="middle">} . (10**$e) . qq{ ms</text>\n};
}
my $by = $T + 6;
for my $b (@bars)
{
	my ($name, $ms) = @$b;
	my $x0 = $lx->(0.01);
	push @svg, sprintf(qq{<rect x="%.1f" y="%d" width="%.1f" height="22" fill="%s"/>\n},
		$x0, $by, $lx->($ms) - $x0, $name eq 'simhash index' ? '#1f77b4' : '#aaa'),
	  sprintf(qq{<text x="%d" y="%d" text-anchor="end">%s</text>\n}, $L - 6, $by + 15, esc($name)),
	  sprintf(qq{<text x="%.1f" y="%d">%s ms</text>\n}, $lx->($ms) + 4, $by + 15, $ms);
	$by += 34;
}
write_svg('radius-query.svg', $W, $H, @svg);
