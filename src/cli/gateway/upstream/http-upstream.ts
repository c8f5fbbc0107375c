/**
 * A Streamable HTTP upstream (MCP 2025-11-25 `basic/transports.mdx` §Streamable HTTP) through the SDK's client
 * transport, with a `fetch` that bounds every message: a JSON body, or one SSE event (the bytes between blank lines),
 * longer than `maxMessageBytes` ends the response with an error and reports the fault, so a server cannot make the
 * gateway buffer without limit.
 */

import { TransformStream, type ReadableStream } from "node:stream/web";
import type { HttpServerConfig } from "../config.js";
import type { LineFault } from "../transport/line-transport.js";
import type { Sdk, Transport } from "../sdk.js";

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Counts the bytes since the last blank line; errors the stream when a message grows past `max`. */
function bounded(body: ReadableStream<Uint8Array>, max: number, onFault: (fault: LineFault) => void) {
  let size = 0;
  let afterNewline = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        for (let i = 0; i < chunk.length; i++) {
          const byte = chunk[i] as number;
          if (byte === NEWLINE) {
            if (afterNewline) size = 0;
            afterNewline = true;
          } else if (byte !== RETURN) {
            afterNewline = false;
            size++;
          }
        }
        if (size > max) {
          onFault({ kind: "oversized", bytes: size });
          controller.error(new Error(`a message from the server exceeds ${max} bytes (--max-message-bytes)`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** The SDK's Streamable HTTP client transport to `config.url`, with its headers and bounded messages. */
export function httpTransport(
  sdk: Sdk,
  config: HttpServerConfig,
  maxMessageBytes: number,
  onFault: (fault: LineFault) => void,
): Transport {
  const boundedFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (response.body === null) return response;
    const body = bounded(response.body, maxMessageBytes, onFault);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return new sdk.StreamableHTTPClientTransport(config.url, {
    requestInit: { headers: { ...config.headers } },
    fetch: boundedFetch,
  });
}
