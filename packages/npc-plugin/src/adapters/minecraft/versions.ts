import minecraftData from 'minecraft-data';
import mineflayer from 'mineflayer';

/** The game versions the pinned mineflayer plays, as it states them itself. */
export const MINEFLAYER_VERSIONS = {
  oldest: mineflayer.oldestSupportedVersion,
  latest: mineflayer.latestSupportedVersion,
  tested: mineflayer.testedVersions,
} as const;

/**
 * Why mineflayer cannot play `version`, or null when it can. The rule is mineflayer's own, asked at
 * run time rather than written down here, so a dependency update widens it by itself: minecraft-data
 * must know the version, and it must lie between mineflayer's oldest and latest supported versions
 * (a later release with the latest one's protocol counts, as mineflayer lets it).
 */
export function unsupportedVersion(version: string): string | null {
  const known = minecraftData.versionsByMinecraftVersion.pc[version];
  if (!known) return `${JSON.stringify(version)} is not a Minecraft Java version the game data knows`;
  const data = minecraftData(version).version;
  const latestProtocol = minecraftData.versionsByMinecraftVersion.pc[MINEFLAYER_VERSIONS.latest]?.version;
  if (
    data['<'](MINEFLAYER_VERSIONS.oldest) ||
    (data['>'](MINEFLAYER_VERSIONS.latest) && data.version !== latestProtocol)
  ) {
    return `${version} is not supported by mineflayer (${MINEFLAYER_VERSIONS.oldest} to ${MINEFLAYER_VERSIONS.latest})`;
  }
  return null;
}
