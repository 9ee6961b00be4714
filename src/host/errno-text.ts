/**
 * A failed system call in a message: the errno name and its text, without Node's ", syscall 'path'"
 * tail, which for writes through an opened directory names /proc/self/fd/N instead of the file
 * (the caller names the file).
 */
export function describeErrno(error: unknown): string {
  const errno = error as NodeJS.ErrnoException;
  const message = String(errno?.message ?? error);
  if (!errno?.code) return message;
  const text = message.replace(new RegExp(`^${errno.code}: `), '').replace(/, (open|write|mkdir|rename|unlink|rmdir|fsync|close|fchmod|link|stat|lstat|read) .*$|, (write|fsync|close|fchmod|read)$/, '');
  return `${errno.code} (${text})`;
}
