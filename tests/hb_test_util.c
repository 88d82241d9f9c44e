/* hb_test_util.c: placeholder until the test helpers land. */
