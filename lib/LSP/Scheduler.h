//===--- Scheduler.h - The server's work, off the protocol thread -*- C++ -*-=//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One worker thread does all of the server's work, in order, so that the
/// protocol thread keeps reading the client's edits while a check runs.
/// A check is debounced: scheduled again under the same key before it
/// starts, it waits for the newest edit (clangd's TUScheduler does the same
/// per file). Requests run as soon as the worker is free; indexing runs
/// only when nothing else waits. In synchronous mode (tests) every task
/// runs at once, on the caller's thread.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_SCHEDULER_H
#define SKC_LIB_LSP_SCHEDULER_H

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace skc {

class Scheduler {
public:
  using Task = llvm::unique_function<void()>;
  using Clock = std::chrono::steady_clock;

  /// \p Debounce: how long a check waits for another edit. \p Background:
  /// the worker runs at the system's lowest priority (llvm::
  /// set_thread_priority), as clangd's background index does.
  Scheduler(bool Synchronous, std::chrono::milliseconds Debounce,
            bool Background = false);
  /// Runs the requests scheduled, drops the checks and the indexing not
  /// started (the client has gone), then stops.
  ~Scheduler();
  Scheduler(const Scheduler &) = delete;
  Scheduler &operator=(const Scheduler &) = delete;

  /// Runs \p T once the debounce delay has passed with no newer task
  /// under \p Key, which replaces this one. A zero \p Delay runs it as soon
  /// as the worker is free (a save's full check).
  void scheduleDebounced(llvm::StringRef Key, Task T);
  void scheduleDebounced(llvm::StringRef Key, Task T,
                         std::chrono::milliseconds Delay);
  /// Runs \p T as soon as the worker is free, in order.
  void schedule(Task T);
  /// Runs \p T when nothing else is due.
  void scheduleIdle(Task T);

private:
  void run();

  bool Synchronous;
  bool Background;
  std::chrono::milliseconds Debounce;
  std::mutex Mutex;
  std::condition_variable Wake;
  std::deque<Task> Now;
  std::map<std::string, std::pair<Clock::time_point, Task>> Debounced;
  std::deque<Task> Idle;
  bool Stopping = false;
  std::thread Worker;
};

} // namespace skc

#endif // SKC_LIB_LSP_SCHEDULER_H
