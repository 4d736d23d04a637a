;; hostile.wat: a guest that speaks the control protocol (docs/PROTOCOL.md)
;; but lets the test choose every argument of every host call it makes. The
;; tests in hostabi_test.go and readonly_test.go use it to hand the host
;; hostile pointers and lengths, and to call WASI directly on preopens.
;;
;; A request is eight little-endian u32 words (op, a, b, c, d, e, f, g),
;; read from the current receive buffer, then free-form data. Unless the op
;; is `send` itself, the reply is 8 bytes: the call's i32 result and the
;; word at 0x2004 (a descriptor that path_open returned, bytes fd_write
;; wrote).
;;
;;  op  call
;;   0  echo the request
;;   1  send(a, b)
;;   2  write(a, b, c)
;;   3  read(a, b)
;;   4  later recvs use buffer a with capacity b
;;   5  clock_time_get(a, 0, b)
;;   6  poll_oneoff(a, b, c, d)
;;   7  memory.grow(a)
;;   8  fd_renumber(a, b)
;;   9  path_open(a, f, b, c, d, e, e, g, 0x2004)  [dirfd, lookup, path, oflags, rights, fdflags]
;;  10  path_unlink_file(a, b, c)
;;  11  path_create_directory(a, b, c)
;;  12  path_remove_directory(a, b, c)
;;  13  path_rename(a, b, c, a, d, e)
;;  14  path_symlink(b, c, a, d, e)
;;  15  path_link(a, 0, b, c, a, d, e)
;;  16  path_filestat_set_times(a, 0, b, c, 0, 0, ATIM_NOW|MTIM_NOW)
;;  17  fd_write(a, b, 1, 0x2004)  [b: one iovec]
;;  18  fd_filestat_set_size(a, 0)
;;  19  fd_close(a)
;;  20  i32.store(a, b)
;;  21  fd_readdir(a, b, c, 0, 0x2004)
;;  22  fetch(a, b, c, d)
;;  23  path_filestat_get(a, f, b, c, d)  [dirfd, lookup, path, filestat]
;;  24  path_readlink(a, b, c, d, e, 0x2004)
(module
  (import "wasmexec" "recv" (func $recv (param i32 i32) (result i32)))
  (import "wasmexec" "send" (func $send (param i32 i32)))
  (import "wasmexec" "write" (func $write (param i32 i32 i32) (result i32)))
  (import "wasmexec" "read" (func $read (param i32 i32) (result i32)))
  (import "wasmexec" "fetch" (func $fetch (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_renumber" (func $renumber (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file" (func $unlink (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $mkdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_remove_directory" (func $rmdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_rename" (func $rename (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_link" (func $link (param i32 i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_filestat_set_times" (func $utimes (param i32 i32 i32 i32 i64 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_filestat_set_size" (func $ftruncate (param i32 i64) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $readdir (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_filestat_get" (func $stat (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_readlink" (func $readlink (param i32 i32 i32 i32 i32 i32) (result i32)))

  (memory (export "memory") 1)
  (global $rptr (mut i32) (i32.const 0x1000))
  (global $rcap (mut i32) (i32.const 0x1000))

  (func (export "_start")
    (local $n i32) (local $op i32) (local $r i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32)
    (local $e i32) (local $f i32) (local $g i32)
    (loop $next
      (local.set $n (call $recv (global.get $rptr) (global.get $rcap)))
      (if (i32.eq (local.get $n) (i32.const -1)) (then (return)))
      (if (i32.gt_u (local.get $n) (global.get $rcap)) (then (unreachable)))
      (local.set $op (i32.load (global.get $rptr)))
      (local.set $a (i32.load offset=4 (global.get $rptr)))
      (local.set $b (i32.load offset=8 (global.get $rptr)))
      (local.set $c (i32.load offset=12 (global.get $rptr)))
      (local.set $d (i32.load offset=16 (global.get $rptr)))
      (local.set $e (i32.load offset=20 (global.get $rptr)))
      (local.set $f (i32.load offset=24 (global.get $rptr)))
      (local.set $g (i32.load offset=28 (global.get $rptr)))
      (i32.store (i32.const 0x2004) (i32.const 0))
      (local.set $r (i32.const 0))
      (if (i32.eqz (local.get $op)) (then
        (call $send (global.get $rptr) (local.get $n))
        (br $next)))
      (if (i32.eq (local.get $op) (i32.const 1)) (then
        (call $send (local.get $a) (local.get $b))
        (br $next)))
      (if (i32.eq (local.get $op) (i32.const 2)) (then
        (local.set $r (call $write (local.get $a) (local.get $b) (local.get $c)))))
      (if (i32.eq (local.get $op) (i32.const 3)) (then
        (local.set $r (call $read (local.get $a) (local.get $b)))))
      (if (i32.eq (local.get $op) (i32.const 4)) (then
        (global.set $rptr (local.get $a))
        (global.set $rcap (local.get $b))))
      (if (i32.eq (local.get $op) (i32.const 5)) (then
        (local.set $r (call $clock (local.get $a) (i64.const 0) (local.get $b)))))
      (if (i32.eq (local.get $op) (i32.const 6)) (then
        (local.set $r (call $poll (local.get $a) (local.get $b) (local.get $c) (local.get $d)))))
      (if (i32.eq (local.get $op) (i32.const 7)) (then
        (local.set $r (memory.grow (local.get $a)))))
      (if (i32.eq (local.get $op) (i32.const 8)) (then
        (local.set $r (call $renumber (local.get $a) (local.get $b)))))
      (if (i32.eq (local.get $op) (i32.const 9)) (then
        (local.set $r (call $path_open (local.get $a) (local.get $f) (local.get $b) (local.get $c)
          (local.get $d) (i64.extend_i32_u (local.get $e)) (i64.extend_i32_u (local.get $e))
          (local.get $g) (i32.const 0x2004)))))
      (if (i32.eq (local.get $op) (i32.const 10)) (then
        (local.set $r (call $unlink (local.get $a) (local.get $b) (local.get $c)))))
      (if (i32.eq (local.get $op) (i32.const 11)) (then
        (local.set $r (call $mkdir (local.get $a) (local.get $b) (local.get $c)))))
      (if (i32.eq (local.get $op) (i32.const 12)) (then
        (local.set $r (call $rmdir (local.get $a) (local.get $b) (local.get $c)))))
      (if (i32.eq (local.get $op) (i32.const 13)) (then
        (local.set $r (call $rename (local.get $a) (local.get $b) (local.get $c)
          (local.get $a) (local.get $d) (local.get $e)))))
      (if (i32.eq (local.get $op) (i32.const 14)) (then
        (local.set $r (call $symlink (local.get $b) (local.get $c) (local.get $a)
          (local.get $d) (local.get $e)))))
      (if (i32.eq (local.get $op) (i32.const 15)) (then
        (local.set $r (call $link (local.get $a) (i32.const 0) (local.get $b) (local.get $c)
          (local.get $a) (local.get $d) (local.get $e)))))
      (if (i32.eq (local.get $op) (i32.const 16)) (then
        (local.set $r (call $utimes (local.get $a) (i32.const 0) (local.get $b) (local.get $c)
          (i64.const 0) (i64.const 0) (i32.const 10)))))
      (if (i32.eq (local.get $op) (i32.const 17)) (then
        (local.set $r (call $fd_write (local.get $a) (local.get $b) (i32.const 1) (i32.const 0x2004)))))
      (if (i32.eq (local.get $op) (i32.const 18)) (then
        (local.set $r (call $ftruncate (local.get $a) (i64.const 0)))))
      (if (i32.eq (local.get $op) (i32.const 19)) (then
        (local.set $r (call $fd_close (local.get $a)))))
      (if (i32.eq (local.get $op) (i32.const 20)) (then
        (i32.store (local.get $a) (local.get $b))))
      (if (i32.eq (local.get $op) (i32.const 21)) (then
        (local.set $r (call $readdir (local.get $a) (local.get $b) (local.get $c) (i64.const 0) (i32.const 0x2004)))))
      (if (i32.eq (local.get $op) (i32.const 22)) (then
        (local.set $r (call $fetch (local.get $a) (local.get $b) (local.get $c) (local.get $d)))))
      (if (i32.eq (local.get $op) (i32.const 23)) (then
        (local.set $r (call $stat (local.get $a) (local.get $f) (local.get $b) (local.get $c) (local.get $d)))))
      (if (i32.eq (local.get $op) (i32.const 24)) (then
        (local.set $r (call $readlink (local.get $a) (local.get $b) (local.get $c) (local.get $d)
          (local.get $e) (i32.const 0x2004)))))
      (i32.store (i32.const 0x2000) (local.get $r))
      (call $send (i32.const 0x2000) (i32.const 8))
      (br $next)))
)
