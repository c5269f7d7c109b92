// A bump allocator over one buffer: a worker's scratch arrays, carved once (and a block's constraint
// rows, carved again when a block meets more contact pairs than they hold: contact/work.hpp).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "engine.hpp"

namespace ach {

/// One arena: every scratch array of one worker, carved once.
class Arena {
 public:
  explicit Arena(std::size_t bytes) : buffer_(std::make_shared<Buffer>(bytes)), cap_(bytes) {}
  template <class X>
  X* take(std::size_t n) {
    const std::size_t align = 64;
    used_ = (used_ + align - 1) / align * align;
    const std::size_t bytes = n * sizeof(X);
    if (used_ + bytes > cap_)
      throw std::length_error("scratch arena overflow: needs " + std::to_string(used_ + bytes) + " bytes, has " + std::to_string(cap_));
    X* p = reinterpret_cast<X*>(static_cast<char*>(buffer_->data()) + used_);
    used_ += bytes;
    return p;
  }

 private:
  std::shared_ptr<Buffer> buffer_;
  std::size_t cap_;
  std::size_t used_ = 0;
};

} // namespace ach
