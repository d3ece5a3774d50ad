/**
 * The real Redis of the test run: `deno task test` (tools/prerequisites.ts)
 * sets `POLICYD_TEST_REDIS_URL` to the Redis it found answering or to the
 * throwaway server it started; plain `deno test` falls back to 127.0.0.1:6379.
 *
 * @module
 */

/** The URL of the Redis the tests use. */
export function testRedisUrl(): string {
  return Deno.env.get("POLICYD_TEST_REDIS_URL") || "redis://127.0.0.1:6379";
}
