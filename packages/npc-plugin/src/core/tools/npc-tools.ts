import { describeSchemaError } from '@plants/common/validation-message';
import { Compile } from 'typebox/compile';
import { AppError, BadRequest, invalidField, NotFound } from '../../errors.js';
import { FOLLOW_DISTANCE, positionOf } from '../../shared/fields.js';
import { EMOTES_WITH_TARGET, type EmoteName } from '../emotes.js';
import type { LookTarget, Position } from '../game.js';
import type { ToolCall, ToolDefinition } from '../gateway/llm-gateway.js';
import type { GoalRecord, NpcState } from '../state-machine.js';
import {
  type EmoteArgs,
  type FollowPlayerArgs,
  type GoToArgs,
  TOOL_SPECS,
  type ToolName,
} from './tool-schemas.js';

/** What the tools drive: the NPC service methods behind the HTTP endpoints. */
export interface NpcActions {
  move(
    command:
      | { kind: 'position'; position: Position; range: number }
      | { kind: 'follow'; player: string; distance: number }
      | { kind: 'stop' },
  ): Promise<{ state: NpcState; goal: GoalRecord | null }>;
  look(target: LookTarget): Promise<{ state: NpcState; yaw: number; pitch: number }>;
  emote(params: {
    name: EmoteName;
    target: LookTarget | null;
  }): Promise<{ state: NpcState; goal: GoalRecord }>;
  playerPosition(name: string): Position | null;
}

/** What the model reads back for one call: data, never instructions. */
export type ToolResult = { ok: true; state: NpcState; goal?: unknown } | { ok: false; error: string };
export type ToolOutcome = 'ok' | 'refused' | 'failed';

export interface NpcToolsOptions {
  enabled: readonly ToolName[];
  /** Names allowed to make the NPC act (case-insensitive); null = everyone. */
  allowedPlayers: readonly string[] | null;
}

const checkers = Object.fromEntries(
  Object.entries(TOOL_SPECS).map(([name, spec]) => [name, Compile(spec.parameters)]),
) as Record<ToolName, ReturnType<typeof Compile>>;

/**
 * Runs the model's tool calls for the player who spoke. Every refusal (a tool not enabled, a speaker
 * not allowed to command the NPC, bad arguments, a target too far, a state that forbids it, a player
 * not in view) and every failure comes back as `{ok: false, error}` for the model, never as an error.
 */
export class NpcTools {
  readonly #enabled: ReadonlySet<string>;
  readonly #definitions: ToolDefinition[];

  constructor(
    private readonly npc: NpcActions,
    private readonly options: NpcToolsOptions,
  ) {
    this.#enabled = new Set(options.enabled);
    this.#definitions = options.enabled.map((name) => ({
      type: 'function',
      function: {
        name,
        description: TOOL_SPECS[name].description,
        parameters: JSON.parse(JSON.stringify(TOOL_SPECS[name].parameters)) as Record<string, unknown>,
      },
    }));
  }

  /** The function definitions sent with every completion request; empty when tools are off. */
  get definitions(): readonly ToolDefinition[] {
    return this.#definitions;
  }

  async call(speaker: string, call: ToolCall): Promise<{ result: ToolResult; outcome: ToolOutcome }> {
    try {
      return { result: await this.#run(speaker, call), outcome: 'ok' };
    } catch (error) {
      if (error instanceof AppError)
        return { result: { ok: false, error: error.message }, outcome: 'refused' };
      const message = error instanceof Error ? error.message : String(error);
      return { result: { ok: false, error: `failed: ${message}` }, outcome: 'failed' };
    }
  }

  async #run(speaker: string, call: ToolCall): Promise<ToolResult> {
    const name = call.function.name;
    if (!this.#enabled.has(name))
      throw invalidField('name', `there is no tool called ${JSON.stringify(name)}`);
    const allowed = this.options.allowedPlayers;
    if (allowed && !allowed.some((player) => player.toLowerCase() === speaker.toLowerCase())) {
      throw invalidField('player', `${speaker} may not make the NPC act`);
    }
    const args = parseArguments(name as ToolName, call.function.arguments);
    switch (name as ToolName) {
      case 'follow_player': {
        const { player } = args as FollowPlayerArgs;
        return done(await this.npc.move({ kind: 'follow', player, distance: FOLLOW_DISTANCE.default }));
      }
      case 'stop':
        return done(await this.npc.move({ kind: 'stop' }));
      case 'go_to': {
        const target = this.#place(args as GoToArgs);
        if (target.kind === 'player') {
          const position = this.npc.playerPosition(target.name);
          if (!position) throw new NotFound(`player ${target.name} is not in view`);
          return done(await this.npc.move({ kind: 'position', position, range: FOLLOW_DISTANCE.default }));
        }
        return done(await this.npc.move({ kind: 'position', position: target.position, range: 1 }));
      }
      case 'look_at': {
        const { state } = await this.npc.look(this.#place(args as GoToArgs));
        return { ok: true, state };
      }
      case 'emote': {
        const { name: emote, player } = args as EmoteArgs;
        const needsTarget = EMOTES_WITH_TARGET.includes(emote);
        if (needsTarget && player === undefined) throw invalidField('player', `${emote} needs a player`);
        if (!needsTarget && player !== undefined) throw invalidField('player', `${emote} takes no player`);
        const target: LookTarget | null = player === undefined ? null : { kind: 'player', name: player };
        return done(await this.npc.emote({ name: emote, target }));
      }
    }
  }

  /** Exactly one of x/y/z or player, as the HTTP targets. */
  #place(args: GoToArgs): Extract<LookTarget, { kind: 'position' | 'player' }> {
    const position = positionOf(args);
    if (position && args.player !== undefined) throw invalidField('player', 'give either x/y/z or player');
    if (position) return { kind: 'position', position };
    if (args.player !== undefined) return { kind: 'player', name: args.player };
    throw invalidField('x', 'give x/y/z or player');
  }
}

function parseArguments(name: ToolName, text: string): unknown {
  let args: unknown;
  try {
    args = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw invalidField('arguments', 'are not valid JSON');
  }
  const checker = checkers[name];
  if (!checker.Check(args)) {
    const { message, field } = describeSchemaError([...checker.Errors(args)], 'arguments');
    throw new BadRequest(message, { field: field ?? 'arguments' });
  }
  return args;
}

function done(answer: { state: NpcState; goal: GoalRecord | null }): ToolResult {
  const goal = answer.goal;
  return {
    ok: true,
    state: answer.state,
    goal: goal ? { kind: goal.kind, target: goal.target, status: goal.status, error: goal.error } : null,
  };
}
