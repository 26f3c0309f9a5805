// micro/codec_case.cpp — the codec cases of `zapbench instructions` (codec_case.hpp).
#include "micro/codec_case.hpp"

#include <stdexcept>

#include "micro/limit_codec.hpp"
#include "record/codecs.hpp"

namespace micro {

struct CodecRun::Impl {
  virtual ~Impl() = default;
  virtual std::string check() = 0;
  virtual void run(std::uint64_t n) = 0;
};

namespace {

template <class C>
struct Typed final : CodecRun::Impl {
  explicit Typed(CodecOp op) : op_(op) {}
  std::string check() override { return ops_.check(op_); }
  void run(std::uint64_t n) override { ops_.run(op_, n); }
  CodecOp op_;
  CodecOps<C> ops_;
};

}  // namespace

std::string CodecCase::name() const { return std::string(op_name(op)) + "/" + codec; }

std::vector<CodecCase> codec_cases() {
  std::vector<CodecCase> out;
  for (CodecOp op : kCodecOps) {
    record::AvailableCodecs::for_each([&]<class C>() { out.push_back({op, std::string(C::kName)}); });
    out.push_back({op, std::string(LimitCodec::kName)});
  }
  return out;
}

bool find_codec_case(std::string_view name, CodecCase& out) {
  for (const CodecCase& c : codec_cases())
    if (c.name() == name) {
      out = c;
      return true;
    }
  return false;
}

CodecRun::CodecRun(const CodecCase& c) {
  if (c.codec == LimitCodec::kName) {
    impl_ = std::make_unique<Typed<LimitCodec>>(c.op);
  } else {
    record::AvailableCodecs::for_each([&]<class C>() {
      if (C::kName == c.codec) impl_ = std::make_unique<Typed<C>>(c.op);
    });
  }
  if (!impl_) throw std::invalid_argument("no available codec '" + c.codec + "'");
}

CodecRun::~CodecRun() = default;

std::string CodecRun::check() { return impl_->check(); }

void CodecRun::run_ops(std::uint64_t n) { impl_->run(n); }

}  // namespace micro
