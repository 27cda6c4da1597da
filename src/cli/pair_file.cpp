#include "pair_file.hpp"

#include "exactdp/io/pair_file.hpp"

namespace exactdp::cli {

PrivacyLoss read_pair_file(const std::string& path) { return load_pair_file(path); }

}  // namespace exactdp::cli
