// accelplan: plan, review and list the catalog from the command line.
#include <iostream>
#include <string>
#include <vector>

#include "client/cli/commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return accelplan::cli::RunCli(args, std::cout, std::cerr);
}
