"""Blind pairs, fifth set: labelled by a session that never saw the gate's rules.

Written on 2026-12-04 by a helper session given only the four labels' definitions and asked
for 60 English and 40 Chinese pairs, about 60 of them the same verb (or attribute) of the
same subject with another value: one of many (unrelated) or one replacing another (update).
Run once on the rules of d11f243 (lexical 4-class 0.40, against 0.35 on stop 23's final rules
0907c20); then one rule was written from its misses (another value of what cannot change,
such as where one was born, is a contradiction), so figures after that are in sample
(docs/benchmarks-dedup.md). Each row is (candidate, stored, label, language, what makes it
hard).
"""

# one pair per line, as written
# ruff: noqa: E501
from __future__ import annotations

from tests.gate.dedup_pairs import Pair

# fmt: off
_ROWS: list[tuple[str, str, str, str, str]] = [
    # ---------------- English: same verb, another value, one of many (15) ----------------
    ("I also speak Portuguese.", "I speak Spanish.", "unrelated", "en", "also marks a second language"),
    ("Tomás plays the cello.", "Tomás plays the guitar.", "unrelated", "en", "instruments: one can play several, no marker"),
    ("We have a cat named Pepper.", "We have a dog named Biscuit.", "unrelated", "en", "pets: a second animal, not a replacement"),
    ("Leah is allergic to shellfish.", "Leah is allergic to peanuts.", "unrelated", "en", "allergies accumulate"),
    ("The repo depends on httpx.", "The repo depends on pydantic.", "unrelated", "en", "dependencies are many-valued"),
    ("Kenji's hobby is rock climbing.", "Kenji's hobby is woodworking.", "unrelated", "en", "singular 'hobby' wording, but people have several"),
    ("I'm friends with Carla from book club.", "I'm friends with Dev from work.", "unrelated", "en", "friends are many"),
    ("Our app ships on Android.", "Our app ships on iOS.", "unrelated", "en", "platforms: same verb, second platform"),
    ("Noor follows Formula 1.", "Noor follows the NBA.", "unrelated", "en", "sports fandom is many-valued"),
    ("Sam sits on the hiring committee.", "Sam sits on the security review board.", "unrelated", "en", "committee memberships stack"),
    ("The service also writes logs to S3.", "The service writes logs to stdout.", "unrelated", "en", "also: a second log sink"),
    ("I take vitamin D every morning.", "I take magnesium every morning.", "unrelated", "en", "supplements: same schedule, different item"),
    ("Grace drinks green tea in the afternoon.", "Grace drinks coffee in the morning.", "unrelated", "en", "different drink at a different time of day"),
    ("Marco works with the Berlin team too.", "Marco works with the Lisbon team.", "unrelated", "en", "too: collaborators, not employer"),
    ("The CI matrix includes Python 3.12.", "The CI matrix includes Python 3.11.", "unrelated", "en", "version bump look, but a matrix holds many"),
    # ---------------- English: same verb, another value, replacing (15) ----------------
    ("I live in Munich now.", "I live in Berlin.", "update", "en", "now: residence is single-valued"),
    ("Priya works at Stripe.", "Priya works at Shopify.", "update", "en", "employer without a marker; the newer job replaces the old"),
    ("My phone is a Pixel 8.", "My phone is an iPhone 13.", "update", "en", "'my phone' is one device"),
    ("Ravi's manager is Helen.", "Ravi's manager is Marcus.", "update", "en", "one manager at a time, no marker"),
    ("The project's database is now Postgres.", "The project's database is MySQL.", "update", "en", "now: a single backing store"),
    ("We switched the package manager to pnpm.", "We use npm as the package manager.", "update", "en", "switched"),
    ("Ana is vegan now.", "Ana is vegetarian.", "update", "en", "vegan implies vegetarian but replaces the diet label"),
    ("Daily standup is at 9:30.", "Daily standup is at 10:00.", "update", "en", "schedule: one time slot, no marker"),
    ("Lucas's favourite band is Radiohead.", "Lucas's favourite band is The Strokes.", "update", "en", "'favourite' is single-valued"),
    ("I no longer play tennis; I play padel instead.", "I play tennis on weekends.", "update", "en", "sports are many-valued, but 'no longer' makes it a replacement"),
    ("The default branch is main.", "The default branch is master.", "update", "en", "one default branch"),
    ("Hana drives a Tesla Model 3.", "Hana drives a Honda Civic.", "update", "en", "could own two cars, but 'drives' reads as her one car"),
    ("Zoe is an engineering manager.", "Zoe is a senior engineer.", "update", "en", "job title: a promotion replaces it"),
    ("The kids' bedtime is 8:30 now.", "The kids go to bed at 8.", "update", "en", "now, and the attribute is reworded"),
    ("Our primary cloud provider is GCP.", "Our primary cloud provider is AWS.", "update", "en", "'primary' makes a many-valued thing single"),
    # ---------------- English: same verb, another value, cannot change (5) ----------------
    ("Ben was born in Leeds.", "Ben was born in Manchester.", "contradiction", "en", "birthplace cannot change, so not an update"),
    ("My blood type is A positive.", "My blood type is O negative.", "contradiction", "en", "immutable attribute"),
    ("Emma's birthday is March 3.", "Emma's birthday is March 13.", "contradiction", "en", "near-identical dates; birthdays do not change"),
    ("The house was built in 1972.", "The house was built in 1968.", "contradiction", "en", "historical fact; a newer value cannot be newer truth"),
    ("The mortgage is fixed at 3.1% for the full 25-year term.", "The mortgage is fixed at 4.2% for the full 25-year term.", "contradiction", "en", "'fixed for the full term' rules out a change"),
    # ---------------- English: same verb, value spelled differently (3) ----------------
    ("I live in NYC.", "I live in New York City.", "duplicate", "en", "different value string, same city"),
    ("The backend runs on PostgreSQL.", "The backend runs on Postgres.", "duplicate", "en", "alias of the same database"),
    ("The team lunch is at noon on Friday.", "The team lunch is at 12:00 on Friday.", "duplicate", "en", "noon vs 12:00"),
    # ---------------- English: duplicate (11) ----------------
    ("The recycling goes out every Tuesday night.", "Put the recycling bins out on Tuesday evenings.", "duplicate", "en", "night vs evening, imperative vs statement"),
    ("Grandma Rosa has celiac disease, so no gluten for her.", "Rosa, my grandmother, has celiac disease.", "duplicate", "en", "consequence added, same fact"),
    ("The spare key is under the blue flowerpot by the back door.", "We keep a spare house key beneath the blue pot at the back door.", "duplicate", "en", "flowerpot vs pot, under vs beneath"),
    ("Invoices need sign-off from finance before they're paid.", "Finance has to approve every invoice prior to payment.", "duplicate", "en", "sign-off vs approve"),
    ("Dana is out of office from Dec 20 to Jan 3.", "Dana's on leave Dec 20 - Jan 3.", "duplicate", "en", "out of office vs on leave"),
    ("The weekly design sync is Wednesdays at 2 pm.", "We meet the design team every Wednesday at 14:00.", "duplicate", "en", "12h vs 24h, noun vs verb phrasing"),
    ("Use ruff for linting, not flake8.", "Lint with ruff; flake8 is not used here.", "duplicate", "en", "negation restated"),
    ("Migrations live in db/migrations/.", "Database migration files are kept under db/migrations.", "duplicate", "en", "trailing slash, live vs kept"),
    ("Commit messages follow Conventional Commits.", "Write commits in the Conventional Commits format (feat:, fix:, ...).", "duplicate", "en", "example list added"),
    ("Never log user email addresses.", "User emails must not appear in logs.", "duplicate", "en", "imperative vs passive rule"),
    ("Theo has swim class on Saturday mornings.", "Saturday morning is Theo's swimming lesson.", "duplicate", "en", "swim class vs swimming lesson, inverted"),
    # ---------------- English: contradiction (9) ----------------
    ("Felix is not allergic to penicillin.", "Felix is allergic to penicillin.", "contradiction", "en", "plain negation, high word overlap"),
    ("The staging database is safe to wipe.", "Never wipe the staging database; QA relies on it.", "contradiction", "en", "permission vs prohibition"),
    ("The client approved the budget.", "The client rejected the budget.", "contradiction", "en", "antonym verbs, no time marker"),
    ("Our lease allows pets.", "Pets are not allowed under our lease.", "contradiction", "en", "opposite with reordered wording"),
    ("The cast-iron pan can go in the dishwasher.", "Never put the cast-iron pan in the dishwasher.", "contradiction", "en", "can vs never"),
    ("The `legacy/` folder is still imported by production code.", "Nothing in production imports from `legacy/`.", "contradiction", "en", "'still' sounds like an update but it is an opposite"),
    ("Mateo has never been to Japan.", "Mateo spent a year living in Osaka.", "contradiction", "en", "needs world knowledge: Osaka is in Japan"),
    ("The Acme contract auto-renews.", "The Acme contract does not auto-renew.", "contradiction", "en", "negation of a property"),
    ("Tests may hit the real payment API.", "Tests must never call the real payment API.", "contradiction", "en", "may vs must never"),
    # ---------------- English: update (1) ----------------
    ("Jade finished her PhD last month.", "Jade is doing a PhD in chemistry.", "update", "en", "state change: ongoing becomes done"),
    # ---------------- English: unrelated (1) ----------------
    ("Aaron's sister is a nurse in Dublin.", "Aaron works as a nurse.", "unrelated", "en", "another subject, same job"),
    # ---------------- Chinese: same verb, another value, one of many (9) ----------------
    ("我也会说日语。", "我会说英语。", "unrelated", "zh", "也：第二门语言"),
    ("小雨家还养了一只兔子。", "小雨家养了一只猫。", "unrelated", "zh", "还：宠物可以有多只"),
    ("王磊喜欢钓鱼。", "王磊喜欢打篮球。", "unrelated", "zh", "爱好可以多个，无标记"),
    ("妈妈对芒果过敏。", "妈妈对青霉素过敏。", "unrelated", "zh", "过敏原会累加"),
    ("这个项目依赖 numpy。", "这个项目依赖 pandas。", "unrelated", "zh", "依赖是多值的"),
    ("李娜会拉小提琴。", "李娜会弹钢琴。", "unrelated", "zh", "乐器：会几样都可以，动词不同"),
    ("我们的应用也上线了微信小程序。", "我们的应用上线了安卓版。", "unrelated", "zh", "也：新增平台"),
    ("陈浩负责数据库运维。", "陈浩负责后端接口开发。", "unrelated", "zh", "职责可兼任，不是换岗"),
    ("周末我常去游泳。", "周末我常去爬山。", "unrelated", "zh", "'常去'两个都成立"),
    # ---------------- Chinese: same verb, another value, replacing (9) ----------------
    ("我现在住在杭州。", "我住在上海。", "update", "zh", "现在：住址单值"),
    ("张伟跳槽去了腾讯。", "张伟在阿里巴巴工作。", "update", "zh", "跳槽：雇主替换，动词不同"),
    ("每周例会改到周三下午了。", "每周例会在周一上午。", "update", "zh", "改到：时间单值"),
    ("我们不再用 Jenkins，改用 GitHub Actions 做 CI 了。", "我们用 Jenkins 做持续集成。", "update", "zh", "不再；CI 与持续集成"),
    ("爸爸现在开一辆比亚迪。", "爸爸开的是一辆大众。", "update", "zh", "现在：车通常一辆"),
    ("赵敏是产品总监。", "赵敏是产品经理。", "update", "zh", "职位晋升，无标记"),
    ("孩子的钢琴课在周六。", "孩子的钢琴课在周日。", "update", "zh", "课程时间单值，无标记"),
    ("我不再吃肉了，现在吃素。", "我什么都吃，不挑食。", "update", "zh", "不再：饮食替换"),
    ("项目的 Node 版本是 20。", "项目使用 Node 16。", "update", "zh", "运行时版本单值，无标记"),
    # ---------------- Chinese: same verb, another value, cannot change (3) ----------------
    ("小林出生在成都。", "小林出生在重庆。", "contradiction", "zh", "出生地不可变"),
    ("外婆的生日是农历八月十五。", "外婆的生日是农历九月初九。", "contradiction", "zh", "生日不会变"),
    ("我们是2015年结婚的。", "我们是2018年结婚的。", "contradiction", "zh", "历史事实，不能更新"),
    # ---------------- Chinese: same verb, value spelled differently (2) ----------------
    ("会议定在中午十二点。", "会议在正午12:00开始。", "duplicate", "zh", "十二点与12:00"),
    ("她在字节跳动上班。", "她在字节工作。", "duplicate", "zh", "公司简称，上班与工作"),
    # ---------------- Chinese: duplicate (8) ----------------
    ("快递放在门口的鞋柜上就行。", "快递员可以把包裹放在门口鞋柜上。", "duplicate", "zh", "快递与包裹，主语不同"),
    ("女儿对花生过敏，买零食要看配料。", "女儿花生过敏。", "duplicate", "zh", "附带后果，同一事实"),
    ("报销单需要部门经理签字。", "所有报销都要经过部门经理签批。", "duplicate", "zh", "签字与签批"),
    ("周五下午三点和客户开评审会。", "客户评审会安排在周五15:00。", "duplicate", "zh", "三点与15:00，语序不同"),
    ("提交代码前先跑 pytest。", "每次 commit 之前都要运行 pytest。", "duplicate", "zh", "中英混用：提交与 commit"),
    ("配置文件放在 config/ 目录下。", "所有配置都在 config 文件夹里。", "duplicate", "zh", "目录与文件夹"),
    ("接口返回的时间统一用 UTC。", "API 里的时间一律使用协调世界时。", "duplicate", "zh", "UTC 与协调世界时，接口与 API"),
    ("爷爷每天早上七点吃降压药。", "爷爷的降压药是每天早晨7点服用。", "duplicate", "zh", "七点与7点，吃与服用"),
    # ---------------- Chinese: contradiction (7) ----------------
    ("冰箱里的剩菜可以给狗吃。", "剩菜绝对不能喂狗。", "contradiction", "zh", "可以与绝对不能"),
    ("这个接口是幂等的。", "这个接口不是幂等的，重复调用会重复扣款。", "contradiction", "zh", "否定加解释"),
    ("小周从来没学过开车。", "小周开车上班已经五年了。", "contradiction", "zh", "需要推理：开车五年必然学过"),
    ("合同里写明可以提前解约。", "合同规定不得提前解约。", "contradiction", "zh", "可以与不得"),
    ("这个库是线程安全的。", "这个库不是线程安全的，不能在多线程里共享。", "contradiction", "zh", "否定，技术属性"),
    ("邻居家的狗不咬人。", "邻居家的狗咬过人，要小心。", "contradiction", "zh", "习性与事实相冲突"),
    ("老李不喝酒。", "老李每天晚上都要喝两杯白酒。", "contradiction", "zh", "不喝与每天喝"),
    # ---------------- Chinese: update (1) ----------------
    ("小陈已经从公司离职了。", "小陈是我们组的前端工程师。", "update", "zh", "离职使在职状态过时"),
    # ---------------- Chinese: unrelated (1) ----------------
    ("刘洋的哥哥在深圳开餐馆。", "刘洋在深圳开了一家餐馆。", "unrelated", "zh", "另一主体，几乎同字"),
]
# fmt: on

BLIND_PAIRS_5: list[Pair] = [
    Pair(candidate, stored, label, "blind 5", language, held_out=True)
    for candidate, stored, label, language, _ in _ROWS
]
