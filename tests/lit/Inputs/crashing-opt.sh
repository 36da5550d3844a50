# An external "compiler" that dies of a segmentation fault.
kill -SEGV $$
