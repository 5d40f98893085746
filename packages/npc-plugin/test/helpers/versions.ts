/** The game version the end-to-end suite runs on first, and the NPC's default. */
export const BASE_VERSION = '1.20.4';
/**
 * The newest version both flying-squid (the test server) and mineflayer were tested with; the suite
 * runs a second time on it (a test checks it against both libraries' lists).
 */
export const NEWEST_SHARED_VERSION = '1.21.4';
/** The version this test run plays: the second end-to-end project sets NPC_TEST_MC_VERSION. */
export const VERSION = process.env.NPC_TEST_MC_VERSION ?? BASE_VERSION;
