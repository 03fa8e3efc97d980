// Trace digests and library versions stored on the root of result files.
#include "allocsim/sweep/store/provenance.hpp"

#include <hdf5.h>
#include <openssl/evp.h>

#include <boost/version.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "allocsim/sweep/experiment/validate.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

namespace {

/// Incremental SHA-256 over OpenSSL's EVP interface.
class Sha256 {
 public:
  Sha256() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1)
      throw std::runtime_error("OpenSSL: cannot start a SHA-256 digest");
  }
  void update(const char* data, std::size_t size) {
    if (EVP_DigestUpdate(context_.get(), data, size) != 1)
      throw std::runtime_error("OpenSSL: SHA-256 update failed");
  }
  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest, &length) != 1)
      throw std::runtime_error("OpenSSL: SHA-256 final failed");
    std::string out;
    char pair[3];
    for (unsigned int i = 0; i < length; ++i) {
      std::snprintf(pair, sizeof pair, "%02x", digest[i]);
      out += pair;
    }
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context_;
};

}  // namespace

std::string sha256_hex(const std::string& bytes) {
  Sha256 digest;
  digest.update(bytes.data(), bytes.size());
  return digest.hex();
}

std::string sha256_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "' to compute its SHA-256");
  Sha256 digest;
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    digest.update(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw InputError("read error in '" + path + "' while computing its SHA-256");
  return digest.hex();
}

std::vector<TraceProvenance> trace_provenance(const std::vector<ConfigEntry>& configs,
                                              const std::string& base_dir,
                                              const std::string& trace_dir) {
  std::vector<TraceProvenance> traces;
  std::set<std::string> seen;
  for (const auto& entry : configs) {
    const std::string& name = entry.config.trace;
    if (!seen.insert(name).second) continue;
    TraceProvenance trace{name, "", ""};
    if (name.rfind("synthetic", 0) != 0) {
      try {
        std::error_code error;
        const auto resolved = std::filesystem::path(resolve_trace(name, base_dir, trace_dir));
        trace.path = std::filesystem::absolute(resolved, error).lexically_normal().string();
        trace.sha256 = sha256_file(trace.path);
      } catch (const InputError&) {
        trace.path.clear();  // unresolvable: the config fails and says why
      }
    }
    traces.push_back(std::move(trace));
  }
  return traces;
}

std::string hdf5_version() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
}

std::string boost_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) +
         "." + std::to_string(BOOST_VERSION % 100);
}

}  // namespace allocsim::sweep
