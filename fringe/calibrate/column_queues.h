// I/O queues of a Measurement Set, one per storage manager (fringe/io/ms/column_tasks.h):
// accesses of columns held by different storage managers (DATA, MODEL_DATA, CORRECTED_DATA,
// FLAG, ...) run at once on their own threads, accesses of one storage manager one after the
// other in the order they are pushed. Needs the MS opened with MsReader::Access::Exclusive or
// ExclusiveUpdate. With FRINGE_MS_IO_THREADS=1 every column shares one queue.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/serial_queue.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::calibrate {

class ColumnQueues {
 public:
  // columns: the main-table columns that will be read or written (all must exist).
  ColumnQueues(const io::MsReader& ms, const std::vector<std::string>& columns) {
    std::map<std::string, SerialQueue*> by_manager;
    for (const std::string& column : columns) {
      const std::string manager = io::concurrent_column_access() ? ms.storage_manager(column) : "";
      SerialQueue*& q = by_manager[manager];
      if (!q) {
        queues_.push_back(std::make_unique<SerialQueue>());
        q = queues_.back().get();
      }
      by_column_[column] = q;
    }
  }

  // The queue of a column given to the constructor.
  SerialQueue& of(const std::string& column) { return *by_column_.at(column); }
  std::size_t num_queues() const { return queues_.size(); }

 private:
  std::vector<std::unique_ptr<SerialQueue>> queues_;
  std::map<std::string, SerialQueue*> by_column_;
};

}  // namespace fringe::calibrate
