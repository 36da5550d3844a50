// Whole files in and out, with errors that name the file. Writes never
// follow a symbolic link (docs/SECURITY.md): a link where a file or a
// directory is to be written is an error.
#pragma once

#include "core/Error.h"

#include <string>

namespace cc {

// Reads a whole file (at most kMaxFileBytes, core/Limits.h), or an error
// naming it.
Expected<std::string> readFile(const std::string &path);
Error writeFile(const std::string &path, const std::string &contents);
// Writes PATH.tmp, then renames it over PATH: a reader sees the old file or
// the new one, never part of one.
Error writeAtomically(const std::string &path, const std::string &contents);
// Creates directory `path` (and its parents) unless it exists; an error
// when `path` itself is a symbolic link or a file.
Error makeDirectory(const std::string &path);

} // namespace cc
