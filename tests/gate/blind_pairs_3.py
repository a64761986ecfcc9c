"""Blind pairs, third set: labelled by a session that never saw the gate's rules.

Written on 2026-12-04, after the day's rule changes were frozen, by a helper session given only
the four labels' definitions and asked for what a personal assistant and a coding agent store
(80 English, 40 Chinese, 30 per label). Run once, on the frozen rules and on those of the day
before; nothing was changed after (docs/benchmarks-dedup.md). Each row is (candidate, stored,
label, language, what makes it hard).
"""

# one pair per line, as written
# ruff: noqa: E501
from __future__ import annotations

from tests.gate.dedup_pairs import Pair

# fmt: off
_ROWS: list[tuple[str, str, str, str, str]] = [
    # ---------------- English: duplicate ----------------
    ("Use pnpm.", "We use pnpm as the package manager for this repo.", "duplicate", "en", "very short imperative vs long declarative"),
    ("My sister Priya's birthday is on March 4th.", "Priya, my sister, was born on 4 March.", "duplicate", "en", "date format and clause reordering"),
    ("The staging database runs Postgres 15.", "Postgres 15 is what the staging DB is on.", "duplicate", "en", "DB abbreviation and reordering"),
    ("I'm allergic to penicillin.", "Penicillin gives me an allergic reaction.", "duplicate", "en", "subject/object swap"),
    ("Deploys to production happen every Tuesday at 2pm.", "We ship to prod on Tuesdays at 14:00.", "duplicate", "en", "12h vs 24h time, prod/ship synonyms"),
    ("Our rent is $2,150 a month.", "Monthly rent: 2150 USD.", "duplicate", "en", "number and currency formatting, note style"),
    ("Marco is the owner of the billing-service repo.", "The billing-service repository is owned by Marco.", "duplicate", "en", "passive voice, repo/repository"),
    ("When flying, I like to sit on the aisle.", "I prefer aisle seats on flights.", "duplicate", "en", "paraphrase of a preference"),
    ("The API rate limit is 1000 requests per minute.", "We cap the API at 1k req/min.", "duplicate", "en", "1k and req/min abbreviations"),
    ("Dad takes 10 mg of atorvastatin every evening.", "Dad's atorvastatin dose is 10mg, taken nightly.", "duplicate", "en", "evening vs nightly, unit spacing"),
    ("Branch names should follow feature/<ticket-id>-short-description.", "Name branches like feature/TICKET-ID-short-description.", "duplicate", "en", "same convention with different placeholder formatting"),
    ("Lena is vegetarian.", "Lena doesn't eat meat.", "duplicate", "en", "negated paraphrase looks like a polarity flip"),
    ("On-call handoff: Mondays, 09:00 PT.", "The on-call rotation hands off every Monday at 9 a.m. Pacific.", "duplicate", "en", "terse note vs full sentence, PT vs Pacific"),
    ("Our flight to Lisbon is on the 12th of June.", "We're flying to Lisbon on June 12.", "duplicate", "en", "ordinal date wording"),
    ("Don't commit directly to main; open a PR instead.", "All changes to main must go through a pull request, no direct pushes.", "duplicate", "en", "contains 'instead' but is not an update"),
    ("The kids' school starts at 8:15.", "School for the children begins at quarter past eight.", "duplicate", "en", "spelled-out time"),
    ("My gym membership costs forty dollars per month.", "I pay $40/month for the gym.", "duplicate", "en", "spelled-out number"),
    ("The frontend is written in TypeScript with React.", "Our frontend uses React and TypeScript.", "duplicate", "en", "list reordering"),
    ("I've been married to Tom since 2015.", "Tom and I got married in 2015.", "duplicate", "en", "'since' marker but same fact, not an update"),
    ("Secrets live in HashiCorp Vault, not in .env files.", "We keep secrets in Vault rather than env files.", "duplicate", "en", "negative clause in both; 'rather than' is not a change"),
    # ---------------- English: update ----------------
    ("We now use pnpm instead of yarn.", "The project uses yarn for package management.", "update", "en", "explicit 'now' and 'instead of'"),
    ("My rent went up to $2,300 this month.", "Rent is $2,150 a month.", "update", "en", "changed amount with 'went up'"),
    ("Marco handed the billing-service repo over to Aisha, so she owns it now.", "Marco owns the billing-service repo.", "update", "en", "owner change; old owner still mentioned in candidate"),
    ("We moved to Denver in August.", "I live in Austin.", "update", "en", "'we' vs 'I', moved marker, no shared city word"),
    ("The API rate limit was raised to 2000 requests per minute.", "API rate limit: 1000 req/min.", "update", "en", "'raised' marker, formatting differs"),
    ("Dad's atorvastatin was increased to 20 mg.", "Dad takes 10 mg of atorvastatin every evening.", "update", "en", "dose change, candidate omits schedule"),
    ("Production deploys are Thursdays now, not Tuesdays.", "We deploy to prod every Tuesday.", "update", "en", "schedule change with negation of old value"),
    ("Staging was upgraded to Postgres 16 last week.", "Staging runs Postgres 15.", "update", "en", "version bump"),
    ("I no longer drink coffee; I switched to green tea.", "I drink two cups of coffee every morning.", "update", "en", "'no longer' looks like contradiction but is a change"),
    ("The login service has been renamed to identity-service.", "The login service is called auth-service.", "update", "en", "rename; names share no tokens"),
    ("As of January, my dentist is Dr. Okafor.", "My dentist is Dr. Lindqvist.", "update", "en", "'as of' marker, different person name"),
    ("Jonas left the platform team and is on data engineering now.", "Jonas works on the platform team.", "update", "en", "team change, stored team named in candidate"),
    ("CI moved from Jenkins to GitHub Actions.", "Our CI runs on Jenkins.", "update", "en", "'moved from X to Y' for tooling"),
    ("Emma's piano lessons are on Wednesdays now.", "Emma has piano lessons every Saturday morning.", "update", "en", "day change, time of day dropped"),
    ("Starting with this release, the minimum supported Node version is 20.", "We support Node 18 and above.", "update", "en", "version floor phrased differently"),
    ("I switched my phone plan to Mint Mobile.", "My phone plan is with Verizon.", "update", "en", "provider change"),
    ("We track issues in Linear since leaving Jira in the spring.", "We track issues in Jira.", "update", "en", "'since' as change marker in middle of sentence"),
    ("The guest Wi-Fi network got renamed to Harbor-Guest.", "The guest Wi-Fi is called Maple-Guest.", "update", "en", "home rename, casual 'got renamed'"),
    ("I'm down to 172 pounds.", "I weigh 185 lbs.", "update", "en", "implicit attribute (weight), 'down to', unit synonym"),
    ("Starting this week, Sofia is the on-call lead for payments instead of Raj.", "Raj is the on-call lead for payments.", "update", "en", "role handover, both names present"),
    # ---------------- English: contradiction ----------------
    ("I have no peanut allergy.", "I'm allergic to peanuts.", "contradiction", "en", "direct negation"),
    ("The billing-service repo is owned by Aisha.", "Marco owns the billing-service repo.", "contradiction", "en", "exclusive owner with no change marker"),
    ("Deploys to production happen on Fridays.", "We never deploy to production on Fridays.", "contradiction", "en", "policy polarity"),
    ("Priya's birthday is March 14.", "My sister Priya's birthday is on March 4.", "contradiction", "en", "near-identical dates, one digit apart"),
    ("Staging runs Postgres 14.", "The staging database is on Postgres 15.", "contradiction", "en", "older version with no upgrade/downgrade wording"),
    ("Indent Python files with 2 spaces.", "Python code uses 4-space indentation.", "contradiction", "en", "exclusive convention values"),
    ("Lena loves a good steak.", "Lena is vegetarian.", "contradiction", "en", "implicit exclusivity needs world knowledge"),
    ("The kids' school starts at 8:45.", "School starts at 8:15 for the kids.", "contradiction", "en", "times differ by 30 minutes, no change marker"),
    ("I always pick a window seat when I fly.", "I prefer aisle seats on flights.", "contradiction", "en", "exclusive preference without shared value words"),
    ("Our mortgage is with Chase.", "The mortgage is held by Wells Fargo.", "contradiction", "en", "exclusive lender"),
    ("Tom can't stand cilantro.", "Tom loves cilantro.", "contradiction", "en", "idiomatic negative vs positive"),
    ("The API is versioned in the URL path, e.g. /v2/orders.", "API versioning is done through an Accept header, not the URL.", "contradiction", "en", "technical exclusive mechanisms"),
    ("My blood type is O negative.", "I'm type A positive.", "contradiction", "en", "immutable attribute, cannot be an update"),
    ("Never squash merge; always use merge commits.", "We squash-merge every PR.", "contradiction", "en", "imperative vs descriptive, 'squash' in both"),
    ("We booked the Asheville cabin for July 3-7.", "The Asheville cabin reservation is July 10-14.", "contradiction", "en", "date ranges for the same booking"),
    ("Grandma lives alone.", "Grandma lives with my uncle Ray.", "contradiction", "en", "implicit exclusivity, short"),
    ("Logs are kept for 30 days.", "Log retention is 90 days.", "contradiction", "en", "numbers with different phrasing"),
    ("I only ever run in the evenings.", "I'm a morning runner, usually out by 6 a.m.", "contradiction", "en", "'only ever' exclusivity"),
    ("The mobile app has no on-call coverage; issues are handled best-effort during business hours.", "The mobile app has 24/7 on-call coverage.", "contradiction", "en", "long vs short, polarity"),
    ("Car insurance renews every October.", "Our car insurance renewal is due in April each year.", "contradiction", "en", "recurring date, mutually exclusive months"),
    # ---------------- English: unrelated ----------------
    ("I'm also allergic to shellfish.", "I'm allergic to penicillin.", "unrelated", "en", "'also' addition in same attribute family"),
    ("Marco owns the notifications repo.", "Marco owns the billing-service repo.", "unrelated", "en", "same person and relation, different object; no 'also'"),
    ("Priya's husband is called Dev.", "My sister Priya's birthday is on March 4.", "unrelated", "en", "same person, different attribute"),
    ("Production runs Postgres 15.", "Staging runs Postgres 15.", "unrelated", "en", "same value, different environment"),
    ("The docs site deploys automatically on every merge to main.", "Backend services deploy to production every Tuesday.", "unrelated", "en", "different service, both deploy schedules"),
    ("My brother Sam lives in Denver.", "I live in Austin.", "unrelated", "en", "different person, same attribute"),
    ("Tom takes his coffee black.", "I take my coffee with oat milk.", "unrelated", "en", "different person, same preference type"),
    ("Admin API keys get 5000 requests per minute.", "The public API rate limit is 1000 requests per minute.", "unrelated", "en", "more specific key class, different number"),
    ("Sev-1 hotfixes can be deployed on any day.", "Regular production deploys go out on Tuesdays.", "unrelated", "en", "specific exception does not replace general rule"),
    ("Emma has swim practice on Thursdays.", "Emma has piano lessons every Saturday morning.", "unrelated", "en", "same child, different activity and day"),
    ("I have a dentist appointment on May 9 at 10:30.", "My dentist is Dr. Lindqvist.", "unrelated", "en", "same topic, different attribute"),
    ("The auth service is written in Go.", "The identity team owns the auth service.", "unrelated", "en", "same service, different attribute"),
    ("We went to Lisbon back in 2022.", "We're flying to Lisbon on June 12.", "unrelated", "en", "past trip vs future trip, same city"),
    ("Jonas is on vacation until the 21st.", "Jonas works on the platform team.", "unrelated", "en", "temporary status, not a team change"),
    ("Our CI caches node_modules between runs.", "CI runs on GitHub Actions.", "unrelated", "en", "same system, different detail"),
    ("We spend about $300 a month on groceries.", "Our rent is $2,150 a month.", "unrelated", "en", "both monthly money amounts"),
    ("Tests must pass on Node 20 too.", "CI runs the test suite on Node 18.", "unrelated", "en", "'too' addition, version numbers differ"),
    ("My mom's favorite flower is the peony.", "My favorite flower is the tulip.", "unrelated", "en", "different person, near-identical wording"),
    ("The CDN cache TTL is 24 hours.", "The Redis cache in staging has a 1-hour TTL.", "unrelated", "en", "different caches, both TTLs"),
    ("Rohan is the secondary on-call for payments this week.", "Raj is the primary on-call for payments this week.", "unrelated", "en", "different roles, same team and week"),
    # ---------------- Chinese: duplicate ----------------
    ("我们用 pnpm。", "项目的包管理工具是 pnpm。", "duplicate", "zh", "短句对长句"),
    ("我妈妈的生日是 5 月 20 日。", "妈妈五月二十号过生日。", "duplicate", "zh", "阿拉伯数字与汉字日期"),
    ("生产环境每周四下午三点发布。", "每周四 15:00 上线到生产。", "duplicate", "zh", "时间格式与同义词 发布/上线"),
    ("我对青霉素过敏。", "青霉素会让我过敏。", "duplicate", "zh", "主宾换位"),
    ("小王负责 order-service 仓库。", "order-service 这个仓库归小王管。", "duplicate", "zh", "口语表达，语序不同"),
    ("我们家房租每月 6500 元。", "每个月房租六千五。", "duplicate", "zh", "口语数字省略单位"),
    ("提交信息要遵循 Conventional Commits 规范。", "commit message 按 Conventional Commits 的格式写。", "duplicate", "zh", "中英混合，同义词"),
    ("我老公不吃辣。", "我丈夫吃不了辣的。", "duplicate", "zh", "老公/丈夫 同义，否定形式不同"),
    ("测试环境的数据库是 MySQL 8.0。", "test 环境用的是 MySQL 8。", "duplicate", "zh", "版本号 8 与 8.0，中英环境名"),
    ("我从 2018 年起就一直住在杭州。", "我 2018 年搬到杭州，一直住到现在。", "duplicate", "zh", "含 搬到/现在 等变化词但说的是同一事实"),
    # ---------------- Chinese: update ----------------
    ("我们现在改用 pnpm 了，不再用 npm。", "项目用 npm 管理依赖。", "update", "zh", "现在/改用/不再 明确标记"),
    ("我们上个月搬到了成都。", "我住在西安。", "update", "zh", "搬到，主语 我们/我"),
    ("房租从这个月起涨到 7000 元。", "我们家房租每月 6500 元。", "update", "zh", "涨到，数值变化"),
    ("order-service 现在由小李负责。", "小王负责 order-service 仓库。", "update", "zh", "负责人变更，带 现在"),
    ("发布时间改成每周二上午十点了。", "生产环境每周四下午三点发布。", "update", "zh", "改成，日期和时间都变"),
    ("我不再吃素了。", "我是素食者。", "update", "zh", "不再 看似否定实为变化"),
    ("儿子的钢琴课调到周日下午了。", "儿子每周六上午上钢琴课。", "update", "zh", "调到 作为变化标记"),
    ("测试环境的数据库已经升级到 MySQL 8.4。", "测试环境用的是 MySQL 8.0。", "update", "zh", "升级，小版本号变化"),
    ("爸爸的降压药换成了氨氯地平。", "爸爸每天吃缬沙坦降血压。", "update", "zh", "换成，药名无共同字"),
    ("值班群已经从钉钉迁到飞书了。", "值班通知发在钉钉群里。", "update", "zh", "从 X 迁到 Y"),
    # ---------------- Chinese: contradiction ----------------
    ("我对青霉素不过敏。", "我对青霉素过敏。", "contradiction", "zh", "只差一个 不 字"),
    ("order-service 归小李负责。", "小王负责 order-service 仓库。", "contradiction", "zh", "负责人不同，无时间标记"),
    ("妈妈的生日是 5 月 2 日。", "我妈妈的生日是 5 月 20 日。", "contradiction", "zh", "日期只差一位数字"),
    ("代码缩进统一用 Tab。", "代码统一用 4 个空格缩进。", "contradiction", "zh", "互斥的规范"),
    ("周五可以正常发布生产。", "周五禁止发布到生产环境。", "contradiction", "zh", "规则极性相反"),
    ("我老公特别能吃辣。", "我老公不吃辣。", "contradiction", "zh", "口语表达的相反偏好"),
    ("我们家的车是纯电的，从来不用加油。", "我们家的车每周要加一次油。", "contradiction", "zh", "需要常识推断互斥"),
    ("预发环境部署在阿里云上。", "预发环境跑在腾讯云。", "contradiction", "zh", "互斥的云厂商"),
    ("女儿在读小学三年级。", "女儿今年上初一。", "contradiction", "zh", "年级互斥，无变化标记"),
    ("日志保留 7 天。", "日志保存 180 天。", "contradiction", "zh", "数值不同，保留/保存 同义"),
    # ---------------- Chinese: unrelated ----------------
    ("我对芒果也过敏。", "我对青霉素过敏。", "unrelated", "zh", "也 表示新增"),
    ("小王还负责 payment-gateway 仓库。", "小王负责 order-service 仓库。", "unrelated", "zh", "还 表示新增，同人同关系"),
    ("爸爸的生日是 11 月 3 日。", "我妈妈的生日是 5 月 20 日。", "unrelated", "zh", "不同人，同属性"),
    ("生产环境的数据库是 PostgreSQL 16。", "测试环境用的是 MySQL 8.0。", "unrelated", "zh", "不同环境"),
    ("紧急修复可以随时发布。", "常规发布在每周四下午三点。", "unrelated", "zh", "特例不替代常规规则"),
    ("我弟弟住在深圳。", "我住在西安。", "unrelated", "zh", "不同人，同属性"),
    ("儿子周三晚上学游泳。", "儿子每周六上午上钢琴课。", "unrelated", "zh", "同一人不同活动"),
    ("前端仓库的提交信息里也要带上 Jira 编号。", "提交信息要遵循 Conventional Commits 规范。", "unrelated", "zh", "也 附加要求，同一主题"),
    ("我们每个月往养老账户存 3000 元。", "我们家房租每月 6500 元。", "unrelated", "zh", "都是每月金额"),
    ("这周的二线值班是阿杰。", "这周的一线值班是小周。", "unrelated", "zh", "一线/二线 不同角色"),
]
# fmt: on

BLIND_PAIRS_3: list[Pair] = [
    Pair(candidate, stored, label, "blind 3", language, held_out=True)
    for candidate, stored, label, language, _ in _ROWS
]
