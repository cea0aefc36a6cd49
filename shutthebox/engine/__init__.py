"""The engine every game shares: the table file format, its reader and writer,
finding and caching tables, the command line, and the notation of sets."""
