#include "core/Json.h"
