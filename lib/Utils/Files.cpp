//===- Files.cpp - reading the files users name ---------------------------===//

#include "gemm/Utils/Files.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir::gemm;

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mlir::gemm::readRegularFile(llvm::StringRef path, bool isText) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return fail(ec.message());
  if (llvm::sys::fs::is_directory(status))
    return fail("it is a directory");
  // A FIFO would block the open, a device like /dev/zero never ends.
  if (!llvm::sys::fs::is_regular_file(status))
    return fail("not a regular file");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, isText);
  if (!buffer)
    return fail(buffer.getError().message());
  return std::move(*buffer);
}
