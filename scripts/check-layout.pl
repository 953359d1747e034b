#!/usr/bin/env perl
# Checks the layering of src/ that src/README.md describes, from the
# #include lines of every .c and .h file:
#   - a folder's files include, of the project's headers, only their own
#     folder's, compat.h, and the public headers of the folders below them
#     (src/type/simhash.h for everyone; nothing else crosses a folder);
#   - src/simhash.c, the module's top, includes only public headers;
#   - the project's headers include no cycle.
# Prints each violation and exits 1 if there is any.  Run by scripts/test.sh.
# Usage: perl scripts/check-layout.pl [SRC_DIR]   (default: src next to this script)
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Find;

my $src = $ARGV[0] // dirname(__FILE__) . '/../src';

# The one public header of each folder, and which folders each may use.
my %public = (
	type        => 'type/simhash.h',
	fingerprint => 'fingerprint/fingerprint.h',
	index       => 'index/index.h',
	planner     => 'planner/planner.h',
	html        => 'html/html.h',
	workflows   => 'workflows/workflows.h',
);
my %may_use = (
	type        => [],
	fingerprint => ['type'],
	index       => ['type'],
	planner     => ['type'],
	html        => [ 'type', 'fingerprint' ],    # fingerprints the page's text
	workflows   => ['type'],
	''          => [ sort keys %public ],    # src/simhash.c
);

my (%includes, @errors);
find(
	{
		no_chdir => 1,
		wanted   => sub {
			return unless /\.[ch]$/;
			(my $rel = $File::Find::name) =~ s{^\Q$src\E/}{};
			open my $fh, '<', $File::Find::name or die "$File::Find::name: $!";
			while (<$fh>)
			{
				push @{ $includes{$rel} }, $1 if /^\s*#\s*include\s+"([^"]+)"/;
			}
			close $fh;
		}
	},
	$src);

# Resolves an include as the compiler would (-Isrc, then the file's folder);
# returns the project file it names, or undef for a PostgreSQL/system header.
sub resolve
{
	my ($from, $inc) = @_;
	my $dir = dirname($from);
	my $local = $dir eq '.' ? $inc : "$dir/$inc";
	return $local if exists $includes{$local} || -f "$src/$local";
	return $inc if exists $includes{$inc} || -f "$src/$inc";
	return undef;
}

sub folder_of
{
	my ($file) = @_;
	return $file =~ m{^([^/]+)/} ? $1 : '';
}

my %edges;
for my $file (sort keys %includes)
{
	my $folder = folder_of($file);
	for my $inc (@{ $includes{$file} })
	{
		my $target = resolve($file, $inc);
		next unless defined $target;
		push @{ $edges{$file} }, $target if $target =~ /\.h$/;
		next if $target eq 'compat.h';
		my $tfolder = folder_of($target);
		next if $tfolder eq $folder && $folder ne '';
		if (!grep { $_ eq $tfolder } @{ $may_use{$folder} // [] })
		{
			push @errors,
			  "$file includes $target: folder '"
			  . ($folder || 'src') . "' may not use '$tfolder'";
		}
		elsif ($target ne $public{$tfolder})
		{
			push @errors,
			  "$file includes $target: only $public{$tfolder} is public in src/$tfolder/";
		}
	}
}

# Cycles among the headers: depth-first search, colouring nodes.
my %state;    # 1 = on the current path, 2 = done
sub visit
{
	my ($node, @path) = @_;
	return if ($state{$node} // 0) == 2;
	if (($state{$node} // 0) == 1)
	{
		my @cycle = (@path[ (grep { $path[$_] eq $node } 0 .. $#path)[0] .. $#path ], $node);
		push @errors, 'include cycle: ' . join(' -> ', @cycle);
		return;
	}
	$state{$node} = 1;
	visit($_, @path, $node) for @{ $edges{$node} // [] };
	$state{$node} = 2;
}
visit($_) for sort keys %includes;

if (@errors)
{
	print "layout: $_\n" for @errors;
	exit 1;
}
printf "layout: %d files, folders and includes as src/README.md says\n",
  scalar keys %includes;
exit 0;
