// grpc_services/services.cpp — Health/Check and ServerReflectionInfo on
// libprotobuf: the build's descriptor set (protoc --descriptor_set_out
// --include_imports over eth.proto, health.proto and both reflection
// packages, embedded by embed.cmake) loaded into a DescriptorPool of its own
// once per process, and each request parsed and each answer written as a
// DynamicMessage of that pool's types. A pool of its own, not libprotobuf's
// generated pool: the messages are not compiled into this binary, and the
// same names may be (grpc++'s reflection library, in zapbench-grpc).
#include "grpc_services/services.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>

#include <climits>
#include <memory>
#include <vector>

namespace grpc_services {

// services_descriptors.cpp, written at build time by embed.cmake.
extern const unsigned char kDescriptorSet[];
extern const std::size_t kDescriptorSetBytes;

namespace {
namespace pb = google::protobuf;
using wire::grpc::Status;

// The reflection protocol's error codes are gRPC status codes (ErrorResponse.error_code).
constexpr int kNotFound = static_cast<int>(Status::not_found);
constexpr int kInvalidArgument = static_cast<int>(Status::invalid_argument);
constexpr int kServing = 1;  // HealthCheckResponse.ServingStatus.SERVING

// The pool and the message types the services read and write; read-only once
// made, so every worker thread shares it.
class Catalog {
 public:
  Catalog() {
    pb::FileDescriptorSet set;
    if (!set.ParseFromArray(kDescriptorSet, static_cast<int>(kDescriptorSetBytes))) {
      error_ = "the build's descriptor set does not parse";
      return;
    }
    for (const pb::FileDescriptorProto& file : set.file())
      if (pool_.BuildFile(file) == nullptr) {
        error_ = "the build's descriptor set does not load: " + file.name();
        return;
      }
    health_request_ = prototype("grpc.health.v1.HealthCheckRequest");
    health_response_ = prototype("grpc.health.v1.HealthCheckResponse");
    // Both reflection packages have the same messages (one template): v1alpha's serve both.
    reflection_request_ = prototype("grpc.reflection.v1alpha.ServerReflectionRequest");
    reflection_response_ = prototype("grpc.reflection.v1alpha.ServerReflectionResponse");
  }
  const std::string& error() const { return error_; }
  const pb::DescriptorPool& pool() const { return pool_; }
  const pb::Message& health_request() const { return *health_request_; }
  const pb::Message& health_response() const { return *health_response_; }
  const pb::Message& reflection_request() const { return *reflection_request_; }
  const pb::Message& reflection_response() const { return *reflection_response_; }

 private:
  const pb::Message* prototype(const char* name) {
    const pb::Descriptor* d = pool_.FindMessageTypeByName(name);
    if (d == nullptr) {
      if (error_.empty()) error_ = std::string("the build's descriptor set has no ") + name;
      return nullptr;
    }
    return factory_.GetPrototype(d);
  }

  std::string error_;  // why the catalog is unusable (a broken build); empty when it is fine
  pb::DescriptorPool pool_;
  pb::DynamicMessageFactory factory_{&pool_};
  const pb::Message* health_request_ = nullptr;
  const pb::Message* health_response_ = nullptr;
  const pb::Message* reflection_request_ = nullptr;
  const pb::Message* reflection_response_ = nullptr;
};

const Catalog& catalog() {
  static const Catalog c;  // made by the first probe, on whichever worker it lands
  return c;
}

// A field of m's type by name (the .proto files above name them; a miss is a build error caught by the
// tests).
const pb::FieldDescriptor& field(const pb::Message& m, const char* name) {
  return *m.GetDescriptor()->FindFieldByName(name);
}

// A request of the type `prototype_of` names in the catalog, parsed into
// `out`: ok, or internal (a broken build's catalog) or invalid_argument (the
// bytes are not such a message) with `why`.
Status parse_request(const pb::Message& (Catalog::*prototype_of)() const, const char* type_name,
                     std::span<const std::uint8_t> bytes, std::unique_ptr<pb::Message>& out,
                     std::string& why) {
  const Catalog& c = catalog();
  if (!c.error().empty()) {
    why = c.error();
    return Status::internal;
  }
  out.reset((c.*prototype_of)().New());
  if (bytes.size() > INT_MAX || !out->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    why = std::string("a ") + type_name + " that does not parse";
    return Status::invalid_argument;
  }
  return Status::ok;
}

// At most 128 bytes of a client's text in a message (grpc-message is bounded too).
std::string quoted(const std::string& s) {
  std::string q(1, '\'');
  q.append(s, 0, 128);
  q += '\'';
  return q;
}

// The file and every file it imports, each once, the file first: what a
// client needs to build the file's descriptors.
void add_files(const pb::FileDescriptor& file, pb::Message& answer) {
  std::vector<const pb::FileDescriptor*> files{&file};
  for (std::size_t i = 0; i < files.size(); ++i)
    for (int d = 0; d < files[i]->dependency_count(); ++d) {
      const pb::FileDescriptor* dep = files[i]->dependency(d);
      bool seen = false;
      for (const pb::FileDescriptor* f : files) seen = seen || f == dep;
      if (!seen) files.push_back(dep);
    }
  const pb::Reflection& r = *answer.GetReflection();
  pb::Message& list = *r.MutableMessage(&answer, &field(answer, "file_descriptor_response"));
  for (const pb::FileDescriptor* f : files) {
    pb::FileDescriptorProto proto;
    f->CopyTo(&proto);
    list.GetReflection()->AddString(&list, &field(list, "file_descriptor_proto"), proto.SerializeAsString());
  }
}

void add_error(pb::Message& answer, int code, const std::string& message) {
  const pb::Reflection& r = *answer.GetReflection();
  pb::Message& e = *r.MutableMessage(&answer, &field(answer, "error_response"));
  e.GetReflection()->SetInt32(&e, &field(e, "error_code"), code);
  e.GetReflection()->SetString(&e, &field(e, "error_message"), message);
}

}  // namespace

std::string_view unavailable() noexcept { return {}; }

Status health_check(std::span<const std::uint8_t> request, std::string& answer, std::string& why) {
  std::unique_ptr<pb::Message> req;
  if (const Status s = parse_request(&Catalog::health_request, "HealthCheckRequest", request, req, why);
      s != Status::ok)
    return s;
  const Catalog& c = catalog();
  const std::string service = req->GetReflection()->GetString(*req, &field(*req, "service"));
  if (!service.empty() && service != wire::grpc::kServiceName) {
    why = "unknown service " + quoted(service);
    return Status::not_found;
  }
  std::unique_ptr<pb::Message> resp(c.health_response().New());
  resp->GetReflection()->SetEnumValue(resp.get(), &field(*resp, "status"), kServing);
  answer = resp->SerializeAsString();
  return Status::ok;
}

Status reflect(std::span<const std::uint8_t> request, std::string& answer, std::string& why) {
  std::unique_ptr<pb::Message> req;
  if (const Status s =
          parse_request(&Catalog::reflection_request, "ServerReflectionRequest", request, req, why);
      s != Status::ok)
    return s;
  const Catalog& c = catalog();
  const pb::Reflection& in = *req->GetReflection();
  std::unique_ptr<pb::Message> resp(c.reflection_response().New());
  const pb::Reflection& out = *resp->GetReflection();
  out.SetString(resp.get(), &field(*resp, "valid_host"), in.GetString(*req, &field(*req, "host")));
  out.MutableMessage(resp.get(), &field(*resp, "original_request"))->CopyFrom(*req);

  const pb::FieldDescriptor* asked =
      in.GetOneofFieldDescriptor(*req, req->GetDescriptor()->FindOneofByName("message_request"));
  const std::string name = asked == nullptr || asked->type() != pb::FieldDescriptor::TYPE_STRING
                               ? std::string()
                               : in.GetString(*req, asked);
  const std::string_view what = asked == nullptr ? std::string_view() : std::string_view(asked->name());
  const pb::DescriptorPool& pool = c.pool();
  if (what == "list_services") {
    pb::Message& list = *out.MutableMessage(resp.get(), &field(*resp, "list_services_response"));
    for (const std::string_view service : kServiceNames) {
      pb::Message& entry = *list.GetReflection()->AddMessage(&list, &field(list, "service"));
      entry.GetReflection()->SetString(&entry, &field(entry, "name"), std::string(service));
    }
  } else if (what == "file_by_filename" || what == "file_containing_symbol") {
    const pb::FileDescriptor* file =
        what == "file_by_filename" ? pool.FindFileByName(name) : pool.FindFileContainingSymbol(name);
    if (file != nullptr)
      add_files(*file, *resp);
    else
      add_error(*resp, kNotFound,
                (what == "file_by_filename" ? "no file " : "no symbol ") + quoted(name) + " on this server");
  } else if (what == "all_extension_numbers_of_type") {
    if (pool.FindMessageTypeByName(name) == nullptr) {
      add_error(*resp, kNotFound, "no type " + quoted(name) + " on this server");
    } else {  // no message of this server's files has extensions: an empty list
      pb::Message& numbers = *out.MutableMessage(resp.get(), &field(*resp, "all_extension_numbers_response"));
      numbers.GetReflection()->SetString(&numbers, &field(numbers, "base_type_name"), name);
    }
  } else if (what == "file_containing_extension") {
    add_error(*resp, kNotFound, "no extensions on this server");
  } else {
    add_error(*resp, kInvalidArgument, "a ServerReflectionRequest that asks for nothing");
  }
  answer = resp->SerializeAsString();
  return Status::ok;
}

}  // namespace grpc_services
