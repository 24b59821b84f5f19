// jemalloc, linked into Rhizome's executables on Linux as the process's allocator (see Package.swift).
// Nothing is called through this header: linking the library is what replaces malloc and free.
#include <jemalloc/jemalloc.h>
