// The benchmark programs' command line: `--name value` options and `--flag` switches, declared
// once with where they go; the usage line is written from the declarations. A bad command line
// (an unknown option, a missing or malformed value, a value a setter refuses) prints
// "error: <option>: <why>" and the usage to stderr and exits with status 2; --help prints the
// usage to stdout and exits with 0.
//
//   bench::Args args("bench_predict");
//   args.value("--stations", "N", opt.stations).value("--filter", "substring", opt.filter);
//   args.flag("--double", opt.double_precision);
//   args.parse(argc, argv);
#pragma once

#include <charconv>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {

class Args {
 public:
  explicit Args(std::string program) : program_(std::move(program)) {}

  // --name V: set(V); set throws std::invalid_argument (its message: why V is refused).
  Args& option(std::string name, std::string meta, std::function<void(const std::string&)> set) {
    options_.push_back({std::move(name), std::move(meta), std::move(set), {}});
    return *this;
  }

  // --name V into target (an integer, a floating-point number or a string).
  template <typename T>
  Args& value(std::string name, std::string meta, T& target) {
    return option(std::move(name), std::move(meta),
                  [&target](const std::string& v) { target = parse_value<T>(v); });
  }

  // --name: on().
  Args& flag(std::string name, std::function<void()> on) {
    options_.push_back({std::move(name), {}, {}, std::move(on)});
    return *this;
  }
  // --name: target = true.
  Args& flag(std::string name, bool& target) {
    return flag(std::move(name), [&target] { target = true; });
  }

  std::string usage() const {
    std::string u = "usage: " + program_;
    for (const Option& o : options_)
      u += " [" + o.name + (o.meta.empty() ? "" : " " + o.meta) + "]";
    return u;
  }

  void parse(int argc, char** argv) const {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        std::cout << usage() << "\n";
        std::exit(0);
      }
      const Option* o = find(a);
      if (o == nullptr) fail(a, "unknown option");
      if (o->on) {
        o->on();
        continue;
      }
      if (i + 1 >= argc) fail(a, "needs a value (" + o->meta + ")");
      const std::string v = argv[++i];
      try {
        o->set(v);
      } catch (const std::invalid_argument& e) {
        fail(a + " " + v, e.what());
      }
    }
  }

  // The value v of type T, whole (std::invalid_argument otherwise).
  template <typename T>
  static T parse_value(const std::string& v) {
    if constexpr (std::is_same_v<T, std::string>) {
      return v;
    } else {
      static_assert(std::is_arithmetic_v<T>);
      T r{};
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), r);
      if (ec != std::errc() || end != v.data() + v.size() || v.empty())
        throw std::invalid_argument(
            std::is_integral_v<T>
                ? (std::is_signed_v<T> ? "expected an integer" : "expected a whole number >= 0")
                : "expected a number");
      return r;
    }
  }

 private:
  struct Option {
    std::string name, meta;
    std::function<void(const std::string&)> set;
    std::function<void()> on;
  };

  const Option* find(const std::string& name) const {
    for (const Option& o : options_)
      if (o.name == name) return &o;
    return nullptr;
  }

  [[noreturn]] void fail(const std::string& what, const std::string& why) const {
    std::cerr << "error: " << what << ": " << why << "\n" << usage() << "\n";
    std::exit(2);
  }

  std::string program_;
  std::vector<Option> options_;
};

}  // namespace bench
