// node:os for wasmexec: a fixed view, the same in every guest (the sandbox
// shows nothing of the host). MIT, part of wasmexec.
'use strict';
const home = '/workspace';
module.exports = {
  EOL: '\n',
  arch: () => 'wasm32',
  platform: () => 'linux',
  type: () => 'Linux',
  release: () => '0.0.0-wasmexec',
  version: () => 'wasmexec',
  machine: () => 'wasm32',
  hostname: () => 'wasmexec',
  homedir: () => home,
  tmpdir: () => '/tmp',
  endianness: () => 'LE',
  uptime: () => 0,
  loadavg: () => [0, 0, 0],
  totalmem: () => 268435456,
  freemem: () => 268435456,
  availableParallelism: () => 1,
  cpus: () => [{model: 'wasm32', speed: 0, times: {user: 0, nice: 0, sys: 0, idle: 0, irq: 0}}],
  networkInterfaces: () => ({}),
  userInfo: () => ({uid: -1, gid: -1, username: 'wasmexec', homedir: home, shell: null}),
  constants: {signals: {}, errno: {}},
  devNull: '/dev/null',
};
