import { describe, expect, it } from 'vitest';
import { conversationTypingTopic, typingSignalSchema, typingTopicConversation } from './realtime.ts';

const ID = '0193a000-0000-7000-8000-0000000000c1';

describe('conversation typing topics', () => {
  it('round-trips a conversation id through its topic', () => {
    expect(conversationTypingTopic(ID)).toBe(`masar/c/${ID}/typing`);
    expect(typingTopicConversation(conversationTypingTopic(ID))).toBe(ID);
  });

  it('knows no other spelling: wildcards, upper case, other levels, not a UUID', () => {
    for (const t of [
      'masar/c/+/typing',
      'masar/c/#',
      `masar/c/${ID.toUpperCase()}/typing`,
      `masar/c/${ID}/typing/x`,
      `/masar/c/${ID}/typing`,
      `masar/c/${ID}/presence`,
      'masar/c/not-a-uuid/typing',
      `masar/u/${ID}`,
    ])
      expect(typingTopicConversation(t), t).toBeNull();
  });

  it('a typing signal is a boolean `typing`; other keys are dropped, never passed on', () => {
    expect(typingSignalSchema.parse({ typing: true, userId: 'someone else' })).toEqual({ typing: true });
    for (const bad of [{}, { typing: 'yes' }, { typing: 1 }, [true], 'typing', null]) expect(typingSignalSchema.safeParse(bad).success).toBe(false);
  });
});
