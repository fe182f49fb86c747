//===--- Scheduler.cpp - The server's work, off the protocol thread -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Scheduler.h"

#include "llvm/Support/Threading.h"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace skc {

Scheduler::Scheduler(bool Synchronous, std::chrono::milliseconds Debounce,
                     bool Background)
    : Synchronous(Synchronous), Background(Background), Debounce(Debounce) {
  if (!Synchronous)
    Worker = std::thread([this, Background] {
      if (Background)
        llvm::set_thread_priority(llvm::ThreadPriority::Background);
      run();
    });
}

Scheduler::~Scheduler() {
  if (Synchronous)
    return;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Stopping = true;
  }
  Wake.notify_all();
#if defined(__linux__)
  // At the lowest priority (SCHED_IDLE), the task running now would hold
  // the server's exit until the machine is idle: let it finish at the
  // normal one (llvm::set_thread_priority sets only its own thread's).
  if (Background) {
    sched_param Normal{};
    pthread_setschedparam(Worker.native_handle(), SCHED_OTHER, &Normal);
  }
#endif
  Worker.join();
}

void Scheduler::scheduleDebounced(llvm::StringRef Key, Task T) {
  scheduleDebounced(Key, std::move(T), Debounce);
}

void Scheduler::scheduleDebounced(llvm::StringRef Key, Task T,
                                  std::chrono::milliseconds Delay) {
  if (Synchronous)
    return T();
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Debounced[Key.str()] = {Clock::now() + Delay, std::move(T)};
  }
  Wake.notify_all();
}

void Scheduler::schedule(Task T) {
  if (Synchronous)
    return T();
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Now.push_back(std::move(T));
  }
  Wake.notify_all();
}

void Scheduler::scheduleIdle(Task T) {
  if (Synchronous)
    return T();
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Idle.push_back(std::move(T));
  }
  Wake.notify_all();
}

void Scheduler::run() {
  std::unique_lock<std::mutex> Lock(Mutex);
  while (true) {
    Task Next;
    if (!Now.empty()) {
      Next = std::move(Now.front());
      Now.pop_front();
    } else if (Stopping) {
      return;
    } else if (!Debounced.empty()) {
      auto Due = Debounced.begin();
      for (auto It = Debounced.begin(); It != Debounced.end(); ++It)
        if (It->second.first < Due->second.first)
          Due = It;
      if (Clock::now() < Due->second.first) {
        Wake.wait_until(Lock, Due->second.first);
        continue;
      }
      Next = std::move(Due->second.second);
      Debounced.erase(Due);
    } else if (!Idle.empty()) {
      Next = std::move(Idle.front());
      Idle.pop_front();
    } else {
      Wake.wait(Lock);
      continue;
    }
    Lock.unlock();
    Next();
    Lock.lock();
  }
}

} // namespace skc
