import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT, loadConfig } from '../src/config.js';
import { ConfigError } from '../src/errors.js';

describe('configuration from the environment', () => {
  it('has documented defaults, with the HTTP port at the Minecraft port + 3', () => {
    const config = loadConfig({});
    expect(config.minecraft).toEqual({
      host: '127.0.0.1',
      port: 25565,
      version: '1.20.4',
      username: 'NPC',
      auth: 'offline',
      pickupItems: false,
    });
    expect(config.http).toMatchObject({
      host: '127.0.0.1',
      port: 25568,
      tls: null,
      loginFailuresPerMinute: 5,
      loginFailuresPerAddressPerMinute: 30,
      loginFailuresPerAccountPerMinute: 20,
      trustProxy: false,
    });
    expect(config.llm).toMatchObject({ baseUrl: null, apiKey: null, timeoutMs: 20_000, maxRetries: 2 });
    expect(config.npc).toMatchObject({
      chatRadius: 16,
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      worldRadiusMax: 64,
    });
    expect(loadConfig({ MC_PORT: '30000' }).http.port).toBe(30003);
  });

  it('is frozen all the way down', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.npc)).toBe(true);
    expect(Object.isFrozen(config.npc.ignoredPlayers)).toBe(true);
  });

  it('reads every kind of value', () => {
    const config = loadConfig({
      MC_AUTH: 'microsoft',
      NPC_AUTO_SPAWN: 'no',
      LLM_BASE_URL: 'http://127.0.0.1:4000/v1/',
      NPC_IGNORED_PLAYERS: 'Bot_1, Other',
      NPC_TLS_CERT: 'c.pem',
      NPC_TLS_KEY: 'k.pem',
    });
    expect(config.minecraft.auth).toBe('microsoft');
    expect(config.npc.autoSpawn).toBe(false);
    expect(config.llm.baseUrl).toBe('http://127.0.0.1:4000/v1');
    expect(config.npc.ignoredPlayers).toEqual(['Bot_1', 'Other']);
    expect(config.http.tls).toEqual({ cert: 'c.pem', key: 'k.pem' });
  });

  it('reads the tool, budget and reply settings', () => {
    const defaults = loadConfig({});
    expect(defaults.npc).toMatchObject({
      tools: ['follow_player', 'stop', 'go_to', 'look_at', 'emote'],
      // Unset: nobody may make the NPC act (a changed default; `*` is everyone).
      toolPlayers: [],
      maxToolCalls: 3,
      operatorHoldMs: 60_000,
      toolFollowTimeoutMs: 300_000,
      followLeash: 48,
      maxQuickExchanges: 12,
      replyMaxChars: 600,
      replyMaxLines: 4,
      llmConcurrency: 4,
      llmDailyTokens: null,
    });
    expect(defaults.llm.maxResponseBytes).toBe(262_144);
    const set = loadConfig({
      NPC_TOOLS: 'emote, stop',
      NPC_TOOL_PLAYERS: 'Alice,Bob',
      NPC_LLM_DAILY_TOKENS: '50000',
      NPC_LLM_CONCURRENCY: '2',
    });
    expect(set.npc).toMatchObject({
      tools: ['emote', 'stop'],
      toolPlayers: ['Alice', 'Bob'],
      llmDailyTokens: 50_000,
    });
    expect(loadConfig({ NPC_TOOL_PLAYERS: '*' }).npc.toolPlayers).toBeNull();
    expect(() => loadConfig({ NPC_TOOL_PLAYERS: '*,Alice' })).toThrow(/"\*" stands alone/);
    // Set but empty means none: no tools, nobody may command the NPC.
    expect(loadConfig({ NPC_TOOLS: '', NPC_TOOL_PLAYERS: '' }).npc).toMatchObject({
      tools: [],
      toolPlayers: [],
    });
    const problems = (() => {
      try {
        loadConfig({
          NPC_TOOLS: 'fly',
          NPC_TOOL_PLAYERS: 'not a name',
          NPC_LLM_DAILY_TOKENS: 'lots',
          NPC_LLM_CONCURRENCY: '0',
          NPC_LOGIN_FAILURES_PER_MINUTE: '10',
          NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '5',
        });
      } catch (e) {
        return (e as ConfigError).problems.map((p) => p.split(/[=: ]/)[0]);
      }
      return [];
    })();
    expect(problems.sort()).toEqual([
      'NPC_LLM_CONCURRENCY',
      'NPC_LLM_DAILY_TOKENS',
      'NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE',
      'NPC_TOOLS',
      'NPC_TOOL_PLAYERS',
    ]);
  });

  it('names every bad value in one error', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({
        MC_PORT: 'eighty',
        MC_VERSION: 'latest',
        MC_USERNAME: 'a name with spaces',
        MC_AUTH: 'mojang',
        NPC_CHAT_RADIUS: '0',
        NPC_AUTO_SPAWN: 'maybe',
        LLM_BASE_URL: 'ftp://x',
        NPC_TLS_CERT: 'only-cert.pem',
        NPC_RECONNECT_MIN_MS: '5000',
        NPC_RECONNECT_MAX_MS: '1000',
      });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = error!.problems.map((p) => p.split(/[=: ]/)[0]);
    expect(names).toEqual(
      expect.arrayContaining([
        'MC_PORT',
        'MC_VERSION',
        'MC_USERNAME',
        'MC_AUTH',
        'NPC_CHAT_RADIUS',
        'NPC_AUTO_SPAWN',
        'LLM_BASE_URL',
        'NPC_TLS_CERT',
        'NPC_RECONNECT_MAX_MS',
      ]),
    );
    expect(error!.message).toMatch(/^Invalid configuration:\n {2}- /);
    expect(error!.problems).toContain('MC_PORT: "eighty" is not valid (expected an integer from 1 to 65535)');
    expect(error!.problems).toContain('MC_VERSION: "latest" is not valid (expected a version like 1.20.4)');
  });

  it('takes a malformed gateway URL as a bad value, not a crash', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'http://[nope' })).toThrow(
      /LLM_BASE_URL: "http:\/\/\[nope" is not valid/,
    );
  });
});
