import { promises as dns } from 'node:dns';
const r = new dns.Resolver({ timeout: 1000, tries: 1 });
for (const port of [15353]) {
r.setServers(['127.0.0.1:'+port]);
for (const name of ['servfail.test','good.test', 'nx.test']) {
  for (const t of ['MX','A']) {
    const t0=Date.now();
    try { console.log(port,name,t, JSON.stringify(await r.resolve(name,t)), Date.now()-t0); } catch (e) { console.log(port,name,t,e.code, Date.now()-t0); }
  }
}}
