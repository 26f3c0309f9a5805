// record/codecs.hpp — the compile-time list of the codecs this build has, for
// code that wants each codec's concrete type (the microbenchmarks, tests).
// Every codec class has: kName, kContentType, kEncodePath, kDecodePath,
// encode_request, encode_response (views into the codec's own reusable
// buffers, valid until the next encode of that direction) and
// decode_request, decode_response (returning DecodeError; inputs carry
// kInputPaddingBytes of readable padding).
#pragma once

#include "record/codec_direct.hpp"
#include "record/codec_zap.hpp"
#include "record/codecs_config.hpp"
#if ZAPBENCH_HAVE_NLOHMANN
#include "record/codec_nlohmann.hpp"
#endif
#if ZAPBENCH_HAVE_RAPIDJSON
#include "record/codec_rapidjson.hpp"
#endif
#if ZAPBENCH_HAVE_BOOSTJSON
#include "record/codec_boostjson.hpp"
#endif
#if ZAPBENCH_HAVE_SIMDJSON
#include "record/codec_simdjson.hpp"
#endif

namespace record {

template <class... Cs>
struct CodecList {
  // f.template operator()<C>() for each codec C, in list order.
  template <class F>
  static void for_each(F&& f) {
    (f.template operator()<Cs>(), ...);
  }
};

using AvailableCodecs = CodecList<ZapCodec, DirectCodec
#if ZAPBENCH_HAVE_NLOHMANN
                                  ,
                                  NlohmannCodec
#endif
#if ZAPBENCH_HAVE_RAPIDJSON
                                  ,
                                  RapidjsonCodec
#endif
#if ZAPBENCH_HAVE_BOOSTJSON
                                  ,
                                  BoostjsonCodec
#endif
#if ZAPBENCH_HAVE_SIMDJSON
                                  ,
                                  SimdjsonCodec
#endif
                                  >;

}  // namespace record
