/** The game version the end-to-end suite runs on first, and the NPC's default. */
export const BASE_VERSION = '1.20.4';
/**
 * Versions flying-squid 1.12 lists as tested but cannot serve: from 1.21.2 on the entity teleport
 * packet changed shape, flying-squid still writes the old one whenever an entity moves more than 7
 * blocks at once (a /tp, a respawn), the packet fails to serialise and the watching player is
 * disconnected.
 */
export const FLYING_SQUID_BROKEN = ['1.21.3', '1.21.4'];
/**
 * The newest version both flying-squid (the test server) and mineflayer were tested with and that
 * flying-squid can actually serve; the suite runs a second time on it (a test checks it against both
 * libraries' lists).
 */
export const NEWEST_SHARED_VERSION = '1.21.1';
/** The version this test run plays: the second end-to-end project sets NPC_TEST_MC_VERSION. */
export const VERSION = process.env.NPC_TEST_MC_VERSION ?? BASE_VERSION;
