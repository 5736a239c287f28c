import dns2 from 'dns2';

const { Packet } = dns2;
// RFC 1035 section 4.1.1 (dns2 has the constant at run time but not in its types).
const NXDOMAIN = 3;

export type Zone = Record<string, Partial<dns2.Packet.Resource>[]>;
export const RecordType = Packet.TYPE;

/**
 * A real DNS server on a random loopback UDP port serving `zone` (which the test may change while it runs).
 * Names absent from the zone answer NXDOMAIN; names present without the asked type answer NODATA.
 */
export async function startDnsServer(zone: Zone): Promise<{ port: number; close(): Promise<void> }> {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0]!;
      const records = zone[question.name.toLowerCase()];
      if (!records) response.header.rcode = NXDOMAIN;
      for (const record of records ?? []) {
        if (record.type !== question.type) continue;
        response.answers.push({
          name: question.name,
          class: Packet.CLASS.IN,
          ttl: 60,
          ...record,
        } as dns2.Packet.Resource);
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { port: addresses.udp!.port, close: () => server.close() };
}
