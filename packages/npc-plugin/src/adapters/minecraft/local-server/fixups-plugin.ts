import type { SquidPlayer, SquidPlugin, SquidServer } from 'flying-squid';

/**
 * A flying-squid 1.12 server plugin for the bugs it shows with real clients. Each fix checks the
 * protocol's features rather than version numbers.
 */
export const fixupsPlugin: SquidPlugin = {
  server(serv) {
    serv.on('newPlayer', (player: SquidPlayer) => {
      sendPlayerListToJoiner(serv);
      spawnPlayersAsPlayers(serv, player);
      registerSneaking(serv, player);
    });
  },
};

/**
 * Bug 1: `_sendPlayerList(toPlayer)` writes the list to everybody except `toPlayer`, so a later
 * joiner never learns who is online (and cannot see their player entities). Keep telling the
 * others (that is how they hear of the joiner) and also send the full list to the joiner.
 */
function sendPlayerListToJoiner(serv: SquidServer): void {
  const original = serv._sendPlayerList;
  if ((original as { fixed?: boolean }).fixed) return;
  const bitfield = serv.supportFeature('playerInfoActionIsBitfield');
  const fixed = (toPlayer: SquidPlayer) => {
    original.call(serv, toPlayer);
    const data = serv.players.map((other) =>
      bitfield
        ? {
            uuid: other.uuid,
            player: { name: other.username, properties: other.profileProperties },
            gamemode: other.gameMode,
            latency: other._client.latency,
          }
        : {
            uuid: other.uuid,
            name: other.username,
            properties: other.profileProperties,
            gamemode: other.gameMode,
            ping: other._client.latency,
          },
    );
    toPlayer._client.write('player_info', { action: bitfield ? { add_player: true } : 'add_player', data });
    respawnAroundJoiner(serv, toPlayer);
  };
  serv._sendPlayerList = Object.assign(fixed, { fixed: true });
}

/**
 * Bug 2: where players are spawned with the generic spawn_entity packet (1.20.2+), flying-squid
 * leaves their entity type at 0, so clients take players for another kind of entity.
 */
function spawnPlayersAsPlayers(serv: SquidServer, player: SquidPlayer): void {
  const playerType = serv.registry.entitiesByName.player?.id;
  if (serv.supportFeature('unifiedPlayerAndEntitySpawnPacket') && playerType !== undefined) {
    player.entityType = playerType;
  }
}

/**
 * Bug 3: `entity_action` ids now arrive as names ("start_sneaking"), which flying-squid compares with
 * numbers, so sneaking and sprinting never register; and from 1.20.2 it sends no metadata at all.
 * Translate the names and send the entity flags (and the crouching pose) to nearby players.
 */
function registerSneaking(serv: SquidServer, player: SquidPlayer): void {
  const named = hasNamedMetadataTypes(serv);
  const byteType = named ? 'byte' : 0;
  const poseType = named ? 'pose' : 18;
  player._client.on('entity_action', (packet) => {
    const action = packet.actionId;
    if (typeof action !== 'string') return;
    let flags: number | null = null;
    let pose: number | null = null;
    if (action === 'start_sneaking') [flags, pose, player.crouching] = [0x02, 5, true];
    else if (action === 'stop_sneaking') [flags, pose, player.crouching] = [0x00, 0, false];
    else if (action === 'start_sprinting') flags = 0x08;
    else if (action === 'stop_sprinting') flags = 0x00;
    if (flags === null) return;
    const metadata: { key: number; type: string | number; value: number }[] = [
      { key: 0, type: byteType, value: flags },
    ];
    if (pose !== null) metadata.push({ key: 6, type: poseType, value: pose });
    player.metadata = metadata;
    player._writeOthersNearby('entity_metadata', { entityId: player.id, metadata });
  });
}

/** From 1.20.2 the protocol names metadata types ("byte", "pose") instead of numbering them. */
function hasNamedMetadataTypes(serv: SquidServer): boolean {
  return JSON.stringify(serv.registry.protocol.types.entityMetadata ?? '').includes('"mapper"');
}

/**
 * Bug 4: a joiner is an entity (at the origin, then at its spawn point) from the moment it connects,
 * long before the player lists go out. An entity that moves or a player that joins meanwhile spawns
 * itself to the joiner, and the joiner to nearby players, and marks each as seen. Those spawn packets
 * arrive before the client has the name behind the entity, so it never links the entity to the
 * player, and the later updates skip them as already seen. Once the lists are out, spawn them again.
 */
function respawnAroundJoiner(serv: SquidServer, joiner: SquidPlayer): void {
  for (const entity of joiner.nearbyEntities) joiner.spawnEntity(entity);
  for (const other of serv.players) {
    if (other !== joiner && other.nearbyEntities.includes(joiner)) other.spawnEntity(joiner);
  }
}
