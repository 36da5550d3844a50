// Finds and opens the LibTorch plugin. LibTorch pulls in some 300 shared
// libraries whose start-up takes about a second: only the commands that
// make a torch backend pay for it, when they make it.
#include "backends/torch/Internal.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>

namespace cc::torchbackend {

namespace {

// $CROSSCHECK_PLUGIN_DIR, else lib/ beside the executable's folder (the
// build puts the plugin in build/lib for build/tools and build/tests).
std::filesystem::path pluginDir() {
  if (const char *dir = std::getenv("CROSSCHECK_PLUGIN_DIR"); dir && *dir)
    return dir;
  std::error_code ec;
  std::filesystem::path exe =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  return exe.parent_path().parent_path() / "lib";
}

Expected<const TorchApi *> load() {
  std::string path = (pluginDir() / CC_TORCH_PLUGIN).string();
  auto fail = [&](const std::string &why) {
    return makeError("cannot load the LibTorch plugin of the torch and "
                     "torchscript backends: " +
                     why + " (set CROSSCHECK_PLUGIN_DIR to its folder)");
  };
  // Never closed: its backends and LibTorch's threads live until exit.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fail(dlerror());
  auto entry =
      reinterpret_cast<const TorchApi *(*)()>(dlsym(handle, "ccTorchApi"));
  if (!entry)
    return fail(dlerror());
  const TorchApi *api = entry();
  if (api->version != kTorchApiVersion)
    return fail(path + " is from another build of crosscheck");
  return api;
}

} // namespace

Expected<const TorchApi *> torchApi() {
  static const Expected<const TorchApi *> api = load();
  return api;
}

} // namespace cc::torchbackend
