# An external "compiler" that asks for 8 GiB in one allocation: under any
# --memory-limit below that it fails at once, whatever the machine's load.
exec python3 -c 'bytearray(8 << 30)'
