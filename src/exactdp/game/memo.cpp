#include "exactdp/game/memo.hpp"

#include <cstring>

namespace exactdp::engine_detail {

void put_integer(std::vector<std::uint8_t>& out, const Integer& v) {
  if (mpz_sizeinbase(v.get_mpz_t(), 2) <= 63) {
    put_varint(out, static_cast<std::uint64_t>(mpz_get_ui(v.get_mpz_t())) << 1);
    return;
  }
  const std::size_t n = (mpz_sizeinbase(v.get_mpz_t(), 2) + 7) / 8;
  put_varint(out, (static_cast<std::uint64_t>(n) << 1) | 1);
  const std::size_t at = out.size();
  out.resize(at + n);
  std::size_t written = 0;
  mpz_export(out.data() + at, &written, -1, 1, -1, 0, v.get_mpz_t());
  out.resize(at + written);
}

void get_integer(const std::uint8_t*& p, Integer& v) {
  const std::uint64_t head = get_varint(p);
  if ((head & 1) == 0) {
    const std::uint64_t x = head >> 1;
    mpz_set_ui(v.get_mpz_t(), static_cast<unsigned long>(x));
    return;
  }
  const std::size_t n = static_cast<std::size_t>(head >> 1);
  mpz_import(v.get_mpz_t(), n, -1, 1, -1, 0, p);
  p += n;
}

void put_rational(std::vector<std::uint8_t>& out, const Rational& q) {
  const int s = sgn(q);
  out.push_back(static_cast<std::uint8_t>(s + 1));
  if (s == 0) return;
  put_integer(out, Integer(abs(q.get_num())));
  put_integer(out, q.get_den());
}

void get_rational(const std::uint8_t*& p, Rational& q) {
  const int s = static_cast<int>(*p++) - 1;
  if (s == 0) {
    q = 0;
    return;
  }
  get_integer(p, q.get_num());
  get_integer(p, q.get_den());
  if (s < 0) q = -q;
}

std::uint64_t hash_bytes(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ (w * 0xc4ceb9fe1a85ec53ULL)) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 31;
    p += 8;
    n -= 8;
  }
  std::uint64_t w = 0;
  std::memcpy(&w, p, n);
  h = (h ^ (w * 0xc4ceb9fe1a85ec53ULL)) * 0x9e3779b97f4a7c15ULL;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 29);
}

void* Arena::allocate(std::size_t n) {
  n = (n + 7) & ~std::size_t(7);
  if (used_ + n > size_) {
    const std::size_t chunk = std::max<std::size_t>(std::size_t(1) << 20, n);
    chunks_.emplace_back(new std::uint8_t[chunk]);
    used_ = 0;
    size_ = chunk;
    if (bytes_) bytes_->fetch_add(chunk, std::memory_order_relaxed);
  }
  void* p = chunks_.back().get() + used_;
  used_ += n;
  return p;
}

const std::uint8_t* Arena::copy(const std::uint8_t* p, std::size_t n) {
  auto* out = static_cast<std::uint8_t*>(allocate(n));
  std::memcpy(out, p, n);
  return out;
}

struct Memo::Shard {
  std::mutex lock;
  std::vector<Entry*> slots;
  std::size_t used = 0;
};

Memo::Memo() : shards_(new Shard[std::size_t(1) << shard_bits]) {}
Memo::~Memo() = default;

namespace {
bool same_key(const Entry* e, const std::uint8_t* key, std::size_t size, std::uint32_t h) {
  return e->hash == h && e->key_size == size && std::memcmp(e->key(), key, size) == 0;
}
}  // namespace

std::pair<Entry*, bool> Memo::find_or_insert(const std::uint8_t* key, std::size_t size, std::uint64_t hash, Arena& arena) {
  Shard& s = shards_[hash >> (64 - shard_bits)];
  const auto h32 = static_cast<std::uint32_t>(hash);
  std::lock_guard<std::mutex> guard(s.lock);
  if ((s.used + 1) * 4 > s.slots.size() * 3) {  // keep the load below 3/4
    std::vector<Entry*> bigger(std::max<std::size_t>(16, s.slots.size() * 2), nullptr);
    const std::size_t mask = bigger.size() - 1;
    for (Entry* e : s.slots)
      if (e) {
        std::size_t i = e->hash & mask;
        while (bigger[i]) i = (i + 1) & mask;
        bigger[i] = e;
      }
    table_bytes_.fetch_add((bigger.size() - s.slots.size()) * sizeof(Entry*), std::memory_order_relaxed);
    s.slots.swap(bigger);
  }
  const std::size_t mask = s.slots.size() - 1;
  std::size_t i = h32 & mask;
  for (; s.slots[i]; i = (i + 1) & mask)
    if (same_key(s.slots[i], key, size, h32)) return {s.slots[i], false};
  void* mem = arena.allocate(sizeof(Entry) + size);
  auto* e = new (mem) Entry();
  e->hash = h32;
  e->key_size = static_cast<std::uint32_t>(size);
  std::memcpy(reinterpret_cast<std::uint8_t*>(e + 1), key, size);
  s.slots[i] = e;
  ++s.used;
  count_.fetch_add(1, std::memory_order_relaxed);
  return {e, true};
}

Entry* Memo::find(const std::uint8_t* key, std::size_t size, std::uint64_t hash) const {
  Shard& s = shards_[hash >> (64 - shard_bits)];
  const auto h32 = static_cast<std::uint32_t>(hash);
  std::lock_guard<std::mutex> guard(s.lock);
  if (s.slots.empty()) return nullptr;
  const std::size_t mask = s.slots.size() - 1;
  for (std::size_t i = h32 & mask; s.slots[i]; i = (i + 1) & mask)
    if (same_key(s.slots[i], key, size, h32)) return s.slots[i];
  return nullptr;
}

}  // namespace exactdp::engine_detail
