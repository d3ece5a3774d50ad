/**
 * Test table shared by the tests of the plain requirement form (the server's
 * `names_test.ts` and the client's `precommit_quick_test.ts`).
 *
 * @module
 */

/** Forms read without the grammar: each must read as the grammar reads it. */
export const PLAIN_FORMS: readonly string[] = [
  "requests",
  "requests==2.32.3",
  "Requests_Foo.bar >= 1.0",
  "a>=1,<2",
  "a!=1.0",
  "a<2",
  "a<=2.0",
  "a>1",
  "a~=1.4",
  "a~=1.4.2",
  "a==1.0,<2",
  "a == 1.0",
  "a>= 1",
  "a\t>=\t1 ,\t<2",
  "x>=1.0, !=1.5, <3",
  "a1",
  "0",
  "9lives==0.1",
  "zope.interface==6.4",
  "foo-bar_baz==01.02",
  "a==1.0.0.0.0",
  "bench-package-7>=1.0",
];

/** Forms left to the grammar (some valid PEP 508, some not), each on one trimmed line. */
export const NOT_PLAIN_FORMS: readonly string[] = [
  "a[extra]>=1",
  "a>=1; python_version < '3.9'",
  "a @ https://example.org/a-1.0.tar.gz",
  "a==1.*",
  "a===1.0",
  "a~=1",
  "a>=1.0a1",
  "a>=1.0.post1",
  "a>=1.0.dev0",
  "a==1!2.0",
  "a==1.0+local",
  "a (>=1.0)",
  "a>=1,",
  "a>=1,,<2",
  "a >=1 <2",
  "a-",
  "-a",
  "a==v1",
  "a\u00a0>=1",
];
