// tests/support/codec_types.hpp — the codecs of this build as a GoogleTest
// type list, for the typed suites that run on every codec (in codecs.table's
// order).
#pragma once

#include <gtest/gtest.h>

#include "record/codecs.hpp"

namespace zaptest {

template <class L>
struct ToTypes;
template <class... Cs>
struct ToTypes<record::CodecList<Cs...>> {
  using type = ::testing::Types<Cs...>;
};
using AllCodecs = ToTypes<record::AvailableCodecs>::type;

}  // namespace zaptest
