import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptCallInput,
  callSchema,
  callSignalInput,
  callWithIceSchema,
  createCallInput,
  currentCallSchema,
  envelope,
  meetingIdQuery,
  message,
  CALL_RING_SECONDS,
} from '@masar/shared';

/**
 * Calls about a load (issue 21 "Calls"; spec §7 POST /meetings/v1/meeting, POST /meetings/v1/accept,
 * DELETE /meetings/v1/leave; docs/calls.md). Signed-in users only; every answer is about a call
 * of my account. No phone number in any answer.
 */
export default async function callsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.calls;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['calls'];

  app.post(
    '/meetings/v1/meeting',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        operationId: 'createMeeting',
        summary: 'Call the other side of a conversation (audio or video)',
        description: `Rings the other side of the chat conversation for at most ${CALL_RING_SECONDS} s (then it is missed). Answers the call with the ICE servers for RTCPeerConnection (STUN, and TURN with a short-lived credential). NOT_FOUND (404) unless I am a side of the conversation; USER_BLOCKED (403) when either blocked the other; CALL_NOT_ALLOWED (403) when the other side’s audio or video contact setting leaves me out; CALL_BUSY (409) when a call of this conversation rings or is active, or either side is in another call.`,
        body: createCallInput,
        response: { 201: envelope(callWithIceSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('common.ok', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
  );
  app.post(
    '/meetings/v1/accept',
    {
      config,
      schema: {
        tags,
        operationId: 'acceptMeeting',
        summary: 'Answer a ringing call',
        description:
          'The called side answers from one tab (`deviceId`); the call becomes active and the caller hears joinRequestAccept. CALL_NOT_RINGING (409) when it no longer rings (answered elsewhere, cancelled, missed) or I am the caller.',
        body: acceptCallInput,
        response: { 200: envelope(callWithIceSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.accept(app.requireUser(req), req.body) }),
  );
  app.delete(
    '/meetings/v1/leave',
    {
      config,
      schema: {
        tags,
        operationId: 'leaveMeeting',
        summary: 'Leave a call: cancel, decline or hang up',
        description:
          'While it rings the caller cancels it (missed: the other side gets a missed-call notification) and the callee declines it; while active either side ends it. Leaving an ended call answers it as it is.',
        querystring: meetingIdQuery,
        response: { 200: envelope(callSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.leave(app.requireUser(req), req.query.meetingId) }),
  );
  app.get(
    '/meetings/v1/meeting/:meetingId',
    { config, schema: { tags, operationId: 'getMeeting', summary: 'One of my calls', params: meetingIdQuery, response: { 200: envelope(callSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(app.requireUser(req), req.params.meetingId) }),
  );
  app.get(
    '/meetings/v1/current',
    {
      config,
      schema: { tags, operationId: 'getCurrentMeeting', summary: 'My ringing or active call, if any', response: { 200: envelope(currentCallSchema) } },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.current(app.requireUser(req)) }),
  );
  app.post(
    '/meetings/v1/signal',
    {
      config,
      schema: {
        tags,
        operationId: 'signalMeeting',
        summary: 'Relay a WebRTC signalling message to the other side',
        description:
          'An SDP offer or answer, or an ICE candidate (JSON-encoded, at most 16,000 characters), passed on to the other party’s MQTT profile topic as `{ "kind": "call-signal" }`; never stored. CALL_NOT_ACTIVE (409) once the call is over.',
        body: callSignalInput,
        response: { 200: envelope(z.object({ relayed: z.boolean() })) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.signal(app.requireUser(req), req.body) }),
  );
}
