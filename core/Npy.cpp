#include "core/Npy.h"
