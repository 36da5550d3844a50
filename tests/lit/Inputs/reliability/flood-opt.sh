# An external "compiler" that floods its standard output without end.
exec yes garbage
