// Whole files in and out, with errors that name the file.
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

} // namespace cc
