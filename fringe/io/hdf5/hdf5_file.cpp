// HDF5 C API calls for Hdf5File (hdf5_file.h). The only file of fringe that includes hdf5.h.
#include "fringe/io/hdf5/hdf5_file.h"

#include <hdf5.h>

#include <algorithm>
#include <mutex>
#include <utility>

#include "fringe/core/error.h"

namespace fringe::io {
namespace {

static_assert(sizeof(hid_t) == sizeof(std::int64_t), "hid_t is stored as int64_t");

// Switches off HDF5's printing of its error stack on stderr (once per process); fringe reports
// errors itself.
void silence_hdf5() {
  static std::once_flag once;
  std::call_once(once, [] {
    H5open();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  });
}

// The innermost (first pushed) message of HDF5's current error stack, or "".
std::string hdf5_message() {
  std::string text;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        auto* out = static_cast<std::string*>(data);
        if (n == 0 && e != nullptr && e->desc != nullptr) *out = e->desc;
        return 0;
      },
      &text);
  H5Eclear2(H5E_DEFAULT);
  return text;
}

// Closes an HDF5 identifier of any kind when it goes out of scope.
class Id {
 public:
  explicit Id(hid_t id = -1) : id_(id) {}
  ~Id() {
    if (id_ >= 0) H5Idec_ref(id_);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
};

std::string normalise(const std::string& name) {
  std::string n = name;
  while (!n.empty() && n.front() == '/') n.erase(n.begin());
  while (!n.empty() && n.back() == '/') n.pop_back();
  return n.empty() ? "/" : n;
}

std::string describe_class(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return "integer";
    case H5T_FLOAT:
      return "float";
    case H5T_STRING:
      return "string";
    case H5T_COMPOUND:
      return "compound of " + std::to_string(H5Tget_nmembers(type)) + " members";
    case H5T_ARRAY:
      return "array";
    case H5T_ENUM:
      return "enum";
    default:
      return "an unsupported type";
  }
}

std::vector<std::size_t> space_dims(hid_t space) {
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<std::size_t> out;
  if (rank <= 0) return out;
  std::vector<hsize_t> d(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, d.data(), nullptr);
  for (hsize_t v : d) out.push_back(static_cast<std::size_t>(v));
  return out;
}

std::size_t product(const std::vector<std::size_t>& dims) {
  std::size_t n = 1;
  for (std::size_t d : dims) n *= d;
  return n;
}

}  // namespace

Hdf5File::Hdf5File(const std::string& path) : path_(path) {
  silence_hdf5();
#if H5_VERSION_GE(1, 12, 0)
  const htri_t is_hdf5 = H5Fis_accessible(path.c_str(), H5P_DEFAULT);
#else
  const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());  // Debian 12 ships HDF5 1.10
#endif
  if (is_hdf5 <= 0) {
    const std::string why = hdf5_message();
    throw Error(path + ": cannot open HDF5 file: " +
                (why.empty() ? std::string("missing, unreadable or not an HDF5 file") : why));
  }
  file_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file_ < 0) throw Error(path + ": cannot open HDF5 file: " + hdf5_message());
}

Hdf5File::~Hdf5File() {
  if (file_ >= 0) H5Fclose(file_);
}

Hdf5File::Hdf5File(Hdf5File&& other) noexcept
    : path_(std::move(other.path_)), file_(std::exchange(other.file_, -1)) {}

Hdf5File& Hdf5File::operator=(Hdf5File&& other) noexcept {
  if (this != &other) {
    if (file_ >= 0) H5Fclose(file_);
    path_ = std::move(other.path_);
    file_ = std::exchange(other.file_, -1);
  }
  return *this;
}

Hdf5Kind Hdf5File::kind(const std::string& name) const {
  const std::string n = normalise(name);
  if (n == "/") return Hdf5Kind::Group;
  // Each link on the path must exist before the next can be asked about (H5Lexists).
  std::size_t pos = 0;
  while (true) {
    const std::size_t slash = n.find('/', pos);
    const std::string prefix = n.substr(0, slash);
    if (H5Lexists(file_, prefix.c_str(), H5P_DEFAULT) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      return Hdf5Kind::Missing;
    }
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  Id obj(H5Oopen(file_, n.c_str(), H5P_DEFAULT));
  if (!obj.ok()) {
    H5Eclear2(H5E_DEFAULT);
    return Hdf5Kind::Missing;  // e.g. a dangling soft link
  }
  switch (H5Iget_type(obj.get())) {
    case H5I_GROUP:
      return Hdf5Kind::Group;
    case H5I_DATASET:
      return Hdf5Kind::Dataset;
    default:
      return Hdf5Kind::Other;
  }
}

std::vector<std::string> Hdf5File::members(const std::string& group) const {
  const std::string g = normalise(group);
  if (kind(g) != Hdf5Kind::Group) throw Error(path_ + ": '" + group + "' is not a group");
  std::vector<std::string> names;
  H5Literate_by_name(
      file_, g.c_str(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->emplace_back(name);
        return 0;
      },
      &names, H5P_DEFAULT);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> Hdf5File::datasets(const std::string& group) const {
  std::vector<std::string> out;
  const std::string g = normalise(group);
  for (const std::string& m : members(group))
    if (kind(g == "/" ? m : g + "/" + m) == Hdf5Kind::Dataset) out.push_back(m);
  return out;
}

std::vector<std::string> Hdf5File::groups(const std::string& group) const {
  std::vector<std::string> out;
  const std::string g = normalise(group);
  for (const std::string& m : members(group))
    if (kind(g == "/" ? m : g + "/" + m) == Hdf5Kind::Group) out.push_back(m);
  return out;
}

namespace {

// Opens a dataset or throws naming the file and the dataset.
hid_t open_dataset(const Hdf5File& f, std::int64_t file, const std::string& name) {
  if (!f.has_dataset(name))
    throw Error(f.path() + ": dataset '" + name + "' is missing (expected in this HDF5 file)");
  const hid_t d = H5Dopen2(file, normalise(name).c_str(), H5P_DEFAULT);
  if (d < 0) throw Error(f.path() + ": cannot open dataset '" + name + "': " + hdf5_message());
  return d;
}

}  // namespace

std::vector<std::size_t> Hdf5File::dims(const std::string& dataset) const {
  Id d(open_dataset(*this, file_, dataset));
  Id space(H5Dget_space(d.get()));
  return space_dims(space.get());
}

Hdf5Real Hdf5File::read_real(const std::string& dataset) const {
  Id d(open_dataset(*this, file_, dataset));
  Id type(H5Dget_type(d.get()));
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT)
    throw Error(path_ + ": dataset '" + dataset +
                "': expected real numbers (integer or float), found " + describe_class(type.get()));
  Id space(H5Dget_space(d.get()));
  Hdf5Real out;
  out.dims = space_dims(space.get());
  out.values.resize(product(out.dims));
  if (!out.values.empty() &&
      H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()) < 0)
    throw Error(path_ + ": cannot read dataset '" + dataset + "': " + hdf5_message());
  return out;
}

Hdf5Complex Hdf5File::read_complex(const std::string& dataset) const {
  Id d(open_dataset(*this, file_, dataset));
  Id type(H5Dget_type(d.get()));
  Id space(H5Dget_space(d.get()));
  Hdf5Complex out;
  out.dims = space_dims(space.get());
  const H5T_class_t cls = H5Tget_class(type.get());
  const std::string expected =
      ": expected complex values (a compound of two floats of one size, or floats with a last "
      "dimension of 2), found ";
  if (cls == H5T_COMPOUND) {
    bool ok = H5Tget_nmembers(type.get()) == 2;
    std::string names[2];
    for (unsigned m = 0; ok && m < 2; ++m) {
      ok = H5Tget_member_class(type.get(), m) == H5T_FLOAT;
      char* nm = H5Tget_member_name(type.get(), m);
      if (nm != nullptr) {
        names[m] = nm;
        H5free_memory(nm);
      }
    }
    if (ok) {
      Id t0(H5Tget_member_type(type.get(), 0));
      Id t1(H5Tget_member_type(type.get(), 1));
      ok = H5Tget_size(t0.get()) == H5Tget_size(t1.get());
    }
    if (!ok)
      throw Error(path_ + ": dataset '" + dataset + "'" + expected + describe_class(type.get()));
    // A memory type of two doubles whose member names are the file's, so that HDF5 converts
    // member by member (the first member is the real part, as OSKAR reads it).
    Id mem(H5Tcreate(H5T_COMPOUND, 2 * sizeof(double)));
    H5Tinsert(mem.get(), names[0].c_str(), 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(mem.get(), names[1].c_str(), sizeof(double), H5T_NATIVE_DOUBLE);
    out.values.resize(product(out.dims));
    if (!out.values.empty() &&
        H5Dread(d.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()) < 0)
      throw Error(path_ + ": cannot read dataset '" + dataset + "': " + hdf5_message());
    return out;
  }
  if (cls == H5T_FLOAT && !out.dims.empty() && out.dims.back() == 2) {
    out.dims.pop_back();
    out.values.resize(product(out.dims));
    // std::complex<double> is laid out as double[2] (real, imaginary).
    if (!out.values.empty() &&
        H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()) < 0)
      throw Error(path_ + ": cannot read dataset '" + dataset + "': " + hdf5_message());
    return out;
  }
  std::string found = describe_class(type.get());
  if (cls == H5T_FLOAT)
    found +=
        out.dims.empty() ? " (scalar)" : " with last dimension " + std::to_string(out.dims.back());
  throw Error(path_ + ": dataset '" + dataset + "'" + expected + found);
}

Hdf5Complex Hdf5File::read_real_or_complex(const std::string& dataset) const {
  Id d(open_dataset(*this, file_, dataset));
  Id type(H5Dget_type(d.get()));
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls == H5T_COMPOUND) return read_complex(dataset);
  Hdf5Real r = read_real(dataset);
  Hdf5Complex out;
  out.dims = std::move(r.dims);
  out.values.assign(r.values.begin(), r.values.end());
  return out;
}

namespace {

// Opens attribute `attribute` of `object`, or -1 when it is absent. Throws if the object is.
hid_t open_attribute(const Hdf5File& f, std::int64_t file, const std::string& object,
                     const std::string& attribute) {
  const std::string o = normalise(object);
  if (f.kind(o) == Hdf5Kind::Missing)
    throw Error(f.path() + ": object '" + object + "' is missing (expected to hold attribute '" +
                attribute + "')");
  const htri_t exists = H5Aexists_by_name(file, o.c_str(), attribute.c_str(), H5P_DEFAULT);
  if (exists <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return -1;
  }
  const hid_t a = H5Aopen_by_name(file, o.c_str(), attribute.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0)
    throw Error(f.path() + ": cannot open attribute '" + attribute + "' of '" + object +
                "': " + hdf5_message());
  return a;
}

}  // namespace

bool Hdf5File::has_attribute(const std::string& object, const std::string& attribute) const {
  Id a(open_attribute(*this, file_, object, attribute));
  return a.ok();
}

std::optional<std::vector<double>> Hdf5File::attribute_doubles(const std::string& object,
                                                               const std::string& attribute) const {
  Id a(open_attribute(*this, file_, object, attribute));
  if (!a.ok()) return std::nullopt;
  Id type(H5Aget_type(a.get()));
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT)
    throw Error(path_ + ": attribute '" + attribute + "' of '" + object +
                "': expected a number, found " + describe_class(type.get()));
  Id space(H5Aget_space(a.get()));
  std::vector<double> v(product(space_dims(space.get())));
  if (!v.empty() && H5Aread(a.get(), H5T_NATIVE_DOUBLE, v.data()) < 0)
    throw Error(path_ + ": cannot read attribute '" + attribute + "' of '" + object +
                "': " + hdf5_message());
  return v;
}

std::optional<double> Hdf5File::attribute_double(const std::string& object,
                                                 const std::string& attribute) const {
  std::optional<std::vector<double>> v = attribute_doubles(object, attribute);
  if (!v) return std::nullopt;
  if (v->size() != 1)
    throw Error(path_ + ": attribute '" + attribute + "' of '" + object +
                "': expected one number, found " + std::to_string(v->size()));
  return v->front();
}

std::optional<std::string> Hdf5File::attribute_string(const std::string& object,
                                                      const std::string& attribute) const {
  Id a(open_attribute(*this, file_, object, attribute));
  if (!a.ok()) return std::nullopt;
  Id type(H5Aget_type(a.get()));
  if (H5Tget_class(type.get()) != H5T_STRING)
    throw Error(path_ + ": attribute '" + attribute + "' of '" + object +
                "': expected a string, found " + describe_class(type.get()));
  std::string out;
  if (H5Tis_variable_str(type.get()) > 0) {
    Id mem(H5Tcopy(H5T_C_S1));
    H5Tset_size(mem.get(), H5T_VARIABLE);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
    char* s = nullptr;
    if (H5Aread(a.get(), mem.get(), &s) < 0)
      throw Error(path_ + ": cannot read attribute '" + attribute + "' of '" + object +
                  "': " + hdf5_message());
    if (s != nullptr) {
      out = s;
      H5free_memory(s);
    }
  } else {
    const std::size_t size = H5Tget_size(type.get());
    std::vector<char> buf(size + 1, '\0');
    if (H5Aread(a.get(), type.get(), buf.data()) < 0)
      throw Error(path_ + ": cannot read attribute '" + attribute + "' of '" + object +
                  "': " + hdf5_message());
    out.assign(buf.data(), size);
  }
  while (!out.empty() && (out.back() == '\0' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace fringe::io
