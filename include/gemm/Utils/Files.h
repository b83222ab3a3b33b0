//===- Files.h - reading the files users name -------------------*- C++ -*-===//
//
// Tuning databases, config lists and manifests are named by the user; a
// name may be a FIFO or a device such as /dev/zero, whose reads never end
// (a tool would grow without bound or hang). Such files are refused before
// they are opened.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_UTILS_FILES_H
#define GEMM_UTILS_FILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>

namespace mlir::gemm {

/// The contents of `path`, which must be a regular file (after symbolic
/// links); the error says why it cannot be read ("not a regular file", or
/// the system's message), for the caller to name the file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readRegularFile(llvm::StringRef path, bool isText = false);

} // namespace mlir::gemm

#endif // GEMM_UTILS_FILES_H
