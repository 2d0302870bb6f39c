/**
 * Loaded with `--import` into a host process under test: on SIGUSR2 it throws, from a timer, an
 * error whose message and cause quote a canary token (LD_SEC_CANARY), as a bug deep in the core
 * would. The test then reads the host's crash output.
 */
process.on('SIGUSR2', () => {
  setTimeout(() => {
    const canary = process.env.LD_SEC_CANARY ?? '';
    throw new Error(`refresh failed: ${canary}`, {
      cause: new Error(`site said: invalid token ${canary}`),
    });
  }, 0);
});
