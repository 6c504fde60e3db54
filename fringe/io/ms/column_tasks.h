// Internal to fringe/io/ms (includes no casacore itself, but is only for code that does): runs
// casacore column accesses on several threads, one task per storage manager.
//
// casacore tables are not thread-safe as a whole, but a column access (ArrayColumn or
// ScalarColumn get/put over a row range) only touches the storage manager the column is bound
// to (its hypercube, bucket cache and file) plus state of the table that reads alone do not
// change. So tasks may run at once when (1) each storage manager is used by one task only,
// (2) no task adds rows, columns or keywords (do that first, on one thread), and (3) the table's
// lock is held for the whole run (TableLock::PermanentLocking, or a table created here): with
// AutoLocking every access updates the lock's inspection counters. casacore 3.5 code paths read
// for this: ArrayColumn::putColumnRange -> PlainColumn (checkWriteLock: a test of the held lock;
// autoReleaseLock: nothing unless AutoLocking) -> TSMDataColumn::accessColumnCells (its
// TiledStMan) / SSMColumn (its StandardStMan) / ISMColumn (its IncrementalStMan).
// Why: per-row overhead in casacore (about 20-40 ns per row and column on a Xeon host) made the
// simulator's Measurement Set writer, one column after the other, slower than two GPUs.
//
// FRINGE_MS_IO_THREADS=1 in the environment runs the tasks one after the other on the calling
// thread (for A/B timing, or if a casacore build behaves differently).
#pragma once

#include <functional>
#include <vector>

namespace fringe::io::detail {

// Runs the tasks (concurrently unless FRINGE_MS_IO_THREADS=1); returns when all have
// finished. If tasks throw, the first exception (in task order) is rethrown after all ended.
void run_column_tasks(const std::vector<std::function<void()>>& tasks);

// False when FRINGE_MS_IO_THREADS=1 (then run_column_tasks is serial).
bool column_tasks_parallel();

}  // namespace fringe::io::detail
