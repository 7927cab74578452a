//===- LaunchLog.h - The runtime's record of recent launches ----*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime. The launch records behind threadbind_launch_count
// and threadbind_launch_record: every launch since the last clear is
// counted, and the records of the most recent ones are kept. A program
// that launches for ever (a training loop calling a bundle) then holds a
// bounded number of records, not one for each launch it ever made.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_LIB_RUNTIME_LAUNCHLOG_H
#define THREADBIND_LIB_RUNTIME_LAUNCHLOG_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

namespace threadbind::runtime {

/// Records of type `Record`, indexed from 0 at the last clear; the most
/// recent `capacity` are kept.
template <typename Record>
class LaunchLog {
public:
  explicit LaunchLog(size_t capacity) : capacity(capacity ? capacity : 1) {}

  /// Appends `record`; returns the one that no longer fits, if any, for
  /// the caller to release (a timed launch's events).
  std::optional<Record> push(Record record) {
    kept.push_back(std::move(record));
    if (kept.size() <= capacity)
      return std::nullopt;
    std::optional<Record> dropped(std::move(kept.front()));
    kept.pop_front();
    ++first;
    return dropped;
  }

  /// Launches since the last clear, kept or not.
  int64_t count() const { return first + static_cast<int64_t>(kept.size()); }

  /// Record `index`, or null where it was never made or is no longer kept.
  Record *find(int64_t index) {
    if (index < first || index >= count())
      return nullptr;
    return &kept[static_cast<size_t>(index - first)];
  }

  /// Starts again from index 0; returns the records kept, for the caller to
  /// release.
  std::deque<Record> clear() {
    std::deque<Record> all;
    all.swap(kept);
    first = 0;
    return all;
  }

private:
  size_t capacity;
  std::deque<Record> kept;
  int64_t first = 0;
};

} // namespace threadbind::runtime

#endif // THREADBIND_LIB_RUNTIME_LAUNCHLOG_H
