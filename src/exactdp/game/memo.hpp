/// @file
/// The engine's memo (internal): canonical belief pairs as byte strings in per-thread arenas, in a
/// sharded hash table that many workers fill at once.
///
/// A node with r rounds left, verifier state σ and beliefs m₀, m₁ over ≡_r-classes
/// (compiled_game.hpp) is memoised on its *primitive integer* form: the unique positive multiple
/// of (m₀, m₁) whose masses are coprime integers. Every value the engine computes is positively
/// homogeneous (B.1), so proportional belief pairs share one entry and a parent multiplies the
/// child's value by the scale it divided out. The key is written once, as varints (r, σ, support
/// sizes, class ids) and integers (a varint when below 2⁶³, else length and bytes), and hashed;
/// nothing is copied per lookup. A memo entry is a 32-byte header followed by its key; its value
/// is written into the arena when the entry completes.
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace exactdp::engine_detail {

/// Appends @p v as a LEB128 varint.
inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}
/// Reads a LEB128 varint and advances @p p.
inline std::uint64_t get_varint(const std::uint8_t*& p) {
  std::uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    const std::uint8_t b = *p++;
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}
/// Appends a non-negative integer: varint(2v) below 2⁶³, else varint(2·bytes + 1) and the bytes.
void put_integer(std::vector<std::uint8_t>& out, const Integer& v);
/// Reads what put_integer wrote.
void get_integer(const std::uint8_t*& p, Integer& v);
/// Appends a rational (sign, numerator, denominator).
void put_rational(std::vector<std::uint8_t>& out, const Rational& q);
/// Reads what put_rational wrote.
void get_rational(const std::uint8_t*& p, Rational& q);

/// 64-bit hash of a byte string.
std::uint64_t hash_bytes(const std::uint8_t* p, std::size_t n);

/// A bump allocator of one worker: 1 MiB chunks, never freed before the arena.
class Arena {
public:
  explicit Arena(std::atomic<std::uint64_t>* bytes = nullptr) : bytes_(bytes) {}
  void* allocate(std::size_t n);
  /// Copies @p n bytes into the arena and returns the copy.
  const std::uint8_t* copy(const std::uint8_t* p, std::size_t n);

private:
  std::vector<std::unique_ptr<std::uint8_t[]>> chunks_;
  std::size_t used_ = 0, size_ = 0;
  std::atomic<std::uint64_t>* bytes_;
};

/// A parent waiting for an entry (one link per child reference); the parent is the solver's
/// record of a node being combined.
struct Waiter {
  void* parent = nullptr;
  Waiter* next = nullptr;
};

/// A memo entry: header, then the key bytes.
struct Entry {
  /// Waiters while the entry is being computed; `done()` once its value is written.
  std::atomic<Waiter*> waiters{nullptr};
  const std::uint8_t* value = nullptr;  ///< both directions' values, encoded (ValueCodec)
  std::uint32_t hash = 0;
  std::uint32_t key_size = 0;
  std::int32_t action[2] = {-1, -1};    ///< argmax action per direction, −1 = stop
  const std::uint8_t* key() const { return reinterpret_cast<const std::uint8_t*>(this + 1); }
  static Waiter* done() { return reinterpret_cast<Waiter*>(std::uintptr_t(1)); }
  bool is_done() const { return waiters.load(std::memory_order_acquire) == done(); }
};
static_assert(sizeof(Entry) == 32, "memo entry header");

/// The sharded hash table of entries (open addressing, linear probing, one lock per shard).
class Memo {
public:
  Memo();
  ~Memo();
  Memo(const Memo&) = delete;
  Memo& operator=(const Memo&) = delete;
  /// The entry of @p key, inserting a fresh one (allocated in @p arena) if absent.
  std::pair<Entry*, bool> find_or_insert(const std::uint8_t* key, std::size_t size, std::uint64_t hash, Arena& arena);
  /// The entry of @p key or nullptr.
  Entry* find(const std::uint8_t* key, std::size_t size, std::uint64_t hash) const;
  std::uint64_t size() const { return count_.load(std::memory_order_relaxed); }
  /// The tables' own memory (slots), bytes.
  std::uint64_t table_bytes() const { return table_bytes_.load(std::memory_order_relaxed); }

private:
  struct Shard;
  static constexpr std::size_t shard_bits = 10;
  std::unique_ptr<Shard[]> shards_;
  std::atomic<std::uint64_t> count_{0}, table_bytes_{0};
};

}  // namespace exactdp::engine_detail
