// zap/zap.hpp — the whole ZAP runtime (header-only): reader views, builder, the
// one-root writer and compile-time schemas. Include this; the parts are split only for reading.
#pragma once

#include "zap/builder.hpp"
#include "zap/reader.hpp"
#include "zap/root_writer.hpp"
#include "zap/schema.hpp"
#include "zap/wire.hpp"
