// record/codec_zap.hpp — the record as native ZAP messages (layouts from
// eth.hpp), with the runtime from src/zap. Decoding is zero-copy: the views
// point into the input. Encoding uses this object's builders, reset and
// reused, so steady state allocates nothing.
#pragma once

#include <string_view>

#include "record/record.hpp"
#include "zap/zap.hpp"

namespace record {

class ZapCodec {
 public:
  static constexpr std::string_view kName = "zap";
  static constexpr std::string_view kContentType = "application/zap";
  static constexpr std::string_view kEncodePath = "zap::Builder, reset and reused per direction";
  static constexpr std::string_view kDecodePath = "zap::Message::parse + typed field views (zero-copy)";

  // The returned view is valid until the next encode of the same direction.
  Bytes encode_request(const Request& r) { return encode_request(req_, r); }
  Bytes encode_response(const Response& r) { return encode_response(resp_, r); }

  // The same into any builder (reset first), e.g. a fresh one per message.
  static Bytes encode_request(zap::Builder& b, const Request& r) {
    b.reset();
    zap::ObjectBuilder o = b.start_object(ReqZap::S::size_bytes);
    o.set(ReqZap::id, r.id);
    o.set(ReqZap::block, r.block);
    o.set(ReqZap::method, r.method);
    o.set(ReqZap::account, zap::Bytes{r.account});
    o.finish_as_root();
    return b.finish();
  }

  static Bytes encode_response(zap::Builder& b, const Response& r) {
    b.reset();
    zap::ObjectBuilder o = b.start_object(RespZap::S::size_bytes);
    o.set(RespZap::id, r.id);
    o.set(RespZap::balance, r.balance);
    o.set(RespZap::nonce, r.nonce);
    o.set(RespZap::block_hash, zap::Bytes{r.block_hash});
    o.finish_as_root();
    return b.finish();
  }

  // A missing field reads as zero in ZAP; only the byte fields can be checked
  // for presence (null) and length.
  DecodeError decode_request(Bytes in, RequestView& out) const noexcept {
    const zap::Message::Parsed p = zap::Message::parse(in);
    if (!p.ok()) return DecodeError::syntax;
    const zap::Object o = p.message.root();
    const zap::Bytes account = o.get(ReqZap::account);
    if (account.size() != kAccountBytes)
      return account.data() == nullptr ? DecodeError::missing_field : DecodeError::bad_length;
    out.id = o.get(ReqZap::id);
    out.block = o.get(ReqZap::block);
    out.method = o.get(ReqZap::method);
    out.account = {reinterpret_cast<const char*>(account.data()), account.size()};
    out.account0 = account[0];
    out.account_form = Form::raw;
    return DecodeError::ok;
  }

  DecodeError decode_response(Bytes in, ResponseView& out) const noexcept {
    const zap::Message::Parsed p = zap::Message::parse(in);
    if (!p.ok()) return DecodeError::syntax;
    const zap::Object o = p.message.root();
    const zap::Bytes hash = o.get(RespZap::block_hash);
    if (hash.size() != kHashBytes)
      return hash.data() == nullptr ? DecodeError::missing_field : DecodeError::bad_length;
    out.id = o.get(RespZap::id);
    out.balance = o.get(RespZap::balance);
    out.nonce = o.get(RespZap::nonce);
    out.block_hash = {reinterpret_cast<const char*>(hash.data()), hash.size()};
    out.block_hash_form = Form::raw;
    return DecodeError::ok;
  }

 private:
  zap::Builder req_{128};
  zap::Builder resp_{128};
};

}  // namespace record
