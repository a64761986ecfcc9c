"""Blind pairs, fourth set: labelled by a session that never saw the gate's rules.

Written on 2026-12-04, after the day's last rule change, by a helper session given only the
four labels' definitions and asked for what a household assistant, a work assistant and a
coding agent store (60 English, 40 Chinese, 25 per label). Run once, on the final rules and
on those of the day before; nothing was changed after (docs/benchmarks-dedup.md). Each row is
(candidate, stored, label, language, what makes it hard).
"""

# one pair per line, as written
# ruff: noqa: E501
from __future__ import annotations

from tests.gate.dedup_pairs import Pair

# fmt: off
_ROWS: list[tuple[str, str, str, str, str]] = [
    # ---------------- English: duplicate (15) ----------------
    ("Dr. Alvarez is Mia's children's doctor.", "My daughter Mia's pediatrician is Dr. Alvarez.", "duplicate", "en", "reordered; pediatrician vs children's doctor"),
    ("Thursday, 15:30 - dentist.", "The dentist appointment is at 3:30 pm on Thursday.", "duplicate", "en", "24h vs 12h time, terse note vs sentence"),
    ("Electric bill: due on day one of every month.", "We pay the electricity bill on the 1st of each month.", "duplicate", "en", "1st vs day one, few shared words"),
    ("Get the car's oil changed once the odometer hits 45k.", "The next oil change for the car is due at 45,000 miles.", "duplicate", "en", "45k vs 45,000 miles, imperative vs statement"),
    ("Don't buy any dog food with chicken in it - Rex can't tolerate it.", "Rex is allergic to chicken.", "duplicate", "en", "imperative implied by allergy; share almost no words"),
    ("Mia has 30-minute piano lessons.", "Mia's piano lesson lasts half an hour.", "duplicate", "en", "half an hour vs 30-minute"),
    ("The onboarding redesign is Priya's project.", "Priya owns the onboarding redesign.", "duplicate", "en", "possessive vs owns"),
    ("Stakeholders get their updates as a single-page PDF rather than a deck.", "Send stakeholder updates as a one-page PDF, never slides.", "duplicate", "en", "deck vs slides, single-page vs one-page"),
    ("Roadmap review for Q3: September 12, 2024.", "The Q3 roadmap review is on 2024-09-12.", "duplicate", "en", "ISO date vs written date"),
    ("For design feedback, comments in Figma are preferred to Slack threads.", "I prefer Figma comments over Slack threads for design feedback.", "duplicate", "en", "first person vs passive"),
    ("Tests are executed via `make test`.", "Run the test suite with `make test`.", "duplicate", "en", "imperative vs passive"),
    ("All changes to main must land through a PR; nobody pushes to it directly.", "Never push directly to main; every change goes through a pull request.", "duplicate", "en", "PR vs pull request, negation restated"),
    ("Billing team owns payments-service.", "The payments service is maintained by the Billing team.", "duplicate", "en", "service name spelled differently, owns vs maintained by"),
    ("The project runs on Node.js v20.", "We target Node 20.", "duplicate", "en", "Node.js v20 vs Node 20"),
    ("A pull request can't be merged until two reviewers have signed off on it.", "PRs need two approvals before merge.", "duplicate", "en", "long paraphrase of short rule"),

    # ---------------- English: update (15) ----------------
    ("Mia's pediatrician is Dr. Chen.", "My daughter Mia's pediatrician is Dr. Alvarez.", "update", "en", "changed name without 'now'"),
    ("The dentist moved Tom's cleaning to Friday at 10.", "Tom's dental cleaning is Wednesday at 2 pm.", "update", "en", "rescheduled appointment"),
    ("Internet went up to $75 a month.", "Our internet bill is $60 per month.", "update", "en", "price change, different phrasing"),
    ("We switched the car insurance over to Geico.", "Car insurance is with State Farm.", "update", "en", "provider change, no shared company name"),
    ("Luna gets one and a half thyroid tablets each morning.", "Luna takes one thyroid tablet every morning.", "update", "en", "dose change without 'now'"),
    ("The launch deadline slipped to November 4.", "Launch deadline is October 21.", "update", "en", "deadline moved"),
    ("Marcus took over the pricing page from Priya.", "Priya owns the pricing page.", "update", "en", "owner change phrased as handover"),
    ("Weekly design sync: Tuesdays at 11.", "The weekly design sync is on Mondays at 2 pm.", "update", "en", "schedule change with no change word"),
    ("From here on, send me drafts as Google Docs.", "I prefer drafts as Word files.", "update", "en", "preference change, imperative"),
    ("Dana from Finance is the main stakeholder for checkout.", "Checkout's main stakeholder is Leo from Sales.", "update", "en", "stakeholder change without 'now'"),
    ("Lint with `pnpm lint`; the old eslint script is gone.", "Run `npm run eslint` to lint.", "update", "en", "command replaced"),
    ("We're on Postgres 16.", "The database is Postgres 14.", "update", "en", "version bump, short"),
    ("The Discovery team owns the search service.", "The Platform team owns the search service.", "update", "en", "owner change, one word differs"),
    ("Release branches get cut every two weeks.", "Release branches are cut weekly.", "update", "en", "cadence change"),
    ("Build the app with `bazel build //app` instead of make.", "Build with `make app`.", "update", "en", "build tool replaced"),

    # ---------------- English: contradiction (15) ----------------
    ("Mia was born on June 3, 2016.", "Mia's birthday is June 13, 2016.", "contradiction", "en", "immutable date, one digit differs"),
    ("Tom's blood type is O negative.", "Tom is A positive.", "contradiction", "en", "immutable attribute"),
    ("We bought the Honda in 2019.", "The Honda was purchased in 2021.", "contradiction", "en", "past purchase year"),
    ("The plumber said the kitchen leak came from the dishwasher hose.", "According to the plumber, the kitchen leak was caused by a cracked sink drain.", "contradiction", "en", "past diagnosis, two causes"),
    ("Our house was built in 1985.", "The house dates from 1978.", "contradiction", "en", "immutable year, different verb"),
    ("We got Rex from a breeder.", "Rex was adopted from the county shelter.", "contradiction", "en", "past origin of pet"),
    ("Priya led yesterday's kickoff on her own.", "Marcus ran yesterday's kickoff meeting; Priya wasn't there.", "contradiction", "en", "same past event, different leader"),
    ("The client signed the contract on May 2.", "The contract was signed by the client on May 9.", "contradiction", "en", "past date, passive vs active"),
    ("Dana approved the final mockups in Friday's review.", "In Friday's review, Dana rejected the final mockups.", "contradiction", "en", "same event, opposite outcome"),
    ("The pricing experiment lifted conversion by 4%.", "The pricing experiment had no measurable effect on conversion.", "contradiction", "en", "result of finished experiment"),
    ("The March 14 outage was caused by an expired TLS certificate.", "Root cause of the March 14 outage: a bad database migration.", "contradiction", "en", "incident root cause"),
    ("v2.3.0 shipped on February 8, 2024.", "v2.3.0 was released on 2024-02-01.", "contradiction", "en", "release date in different formats"),
    ("PR #398 introduced the retry logic.", "The retry logic was added in PR #412.", "contradiction", "en", "past change, PR number differs"),
    ("CI has never run on self-hosted runners.", "CI used self-hosted runners until last year.", "contradiction", "en", "never vs history, 'last year' is not a newer value"),
    ("Bob wrote the config parser from scratch by himself.", "The config parser was written by Alice.", "contradiction", "en", "authorship of past work"),

    # ---------------- English: unrelated (15) ----------------
    ("Mia's dentist is Dr. Patel.", "My daughter Mia's pediatrician is Dr. Alvarez.", "unrelated", "en", "same person, different attribute"),
    ("Tom also plays soccer on Saturdays.", "Tom has swim practice on Saturdays.", "unrelated", "en", "addition with 'also'"),
    ("The water bill is due on the 15th.", "We pay the electricity bill on the 1st of each month.", "unrelated", "en", "different bill"),
    ("Luna the cat is allergic to fish.", "Rex is allergic to chicken.", "unrelated", "en", "different pet, same pattern"),
    ("Buy gluten-free bread for Sam.", "We buy whole-wheat bread for the kids.", "unrelated", "en", "different person, shares bread"),
    ("The Honda needs new wiper blades.", "The next oil change for the car is due at 45,000 miles.", "unrelated", "en", "same car, different maintenance item"),
    ("Priya owns the onboarding research.", "Priya owns the onboarding redesign.", "unrelated", "en", "one word differs, different thing"),
    ("The Monday design sync is also open to engineers.", "The weekly design sync is on Mondays at 2 pm.", "unrelated", "en", "addition about same meeting"),
    ("Use the dark template for investor decks.", "Use the company's light template for slide decks.", "unrelated", "en", "more specific case leaves general rule standing"),
    ("The mobile launch deadline is December 1.", "The web launch deadline is October 21.", "unrelated", "en", "different product surface"),
    ("Run the integration tests with `make test-integration`.", "Run the test suite with `make test`.", "unrelated", "en", "different command, many shared words"),
    ("PRs also need a green CI run before merge.", "PRs need two approvals before merge.", "unrelated", "en", "extra merge rule with 'also'"),
    ("The payments service's staging database is Postgres 14.", "The payments service runs on Node 20.", "unrelated", "en", "same service, different attribute"),
    ("The search service is owned by Discovery.", "The Billing team owns payments-service.", "unrelated", "en", "different service"),
    ("The March 14 outage lasted 40 minutes.", "The March 14 outage was caused by an expired TLS certificate.", "unrelated", "en", "same incident, duration vs cause"),

    # ---------------- Chinese: duplicate (10) ----------------
    ("每周六10:00是女儿上钢琴课的时间。", "女儿的钢琴课每周六上午十点。", "duplicate", "zh", "汉字数字与阿拉伯数字，语序变化"),
    ("燃气费是双月缴纳的。", "家里的燃气费每两个月交一次。", "duplicate", "zh", "双月 vs 每两个月"),
    ("别给豆豆喂巧克力。", "狗狗豆豆不能吃巧克力。", "duplicate", "zh", "祈使句 vs 陈述句"),
    ("爷爷三月五号14:00复诊。", "爷爷的复诊安排在3月5日下午两点。", "duplicate", "zh", "日期时间写法不同"),
    ("PRD请用飞书文档写，别发Word文件。", "需求文档我习惯用飞书文档，不要发Word。", "duplicate", "zh", "PRD vs 需求文档，第一人称 vs 祈使"),
    ("支付页改版由小王牵头。", "小王负责支付页的改版。", "duplicate", "zh", "牵头 vs 负责"),
    ("每周一 9:30 开周会。", "周会固定在每周一上午九点半。", "duplicate", "zh", "九点半 vs 9:30"),
    ("单元测试的命令是 pytest -q。", "用 `pytest -q` 跑单元测试。", "duplicate", "zh", "命令描述 vs 祈使"),
    ("main 分支的合并需要至少两名评审批准。", "合并到 main 之前至少要两个人 review 通过。", "duplicate", "zh", "review 中英混用 vs 评审"),
    ("交易组是订单服务的负责团队。", "订单服务归交易组维护。", "duplicate", "zh", "主语宾语互换"),

    # ---------------- Chinese: update (10) ----------------
    ("女儿的钢琴课改到周日下午了。", "女儿的钢琴课每周六上午十点。", "update", "zh", "课程改期"),
    ("物业费涨到每月三百二。", "物业费每月280元。", "update", "zh", "涨价，口语数字"),
    ("豆豆的狗粮换成了皇家的低敏配方。", "豆豆吃的是渴望的鸡肉狗粮。", "update", "zh", "品牌更换"),
    ("爸爸的降压药一天吃两次，每次半片。", "爸爸的降压药每天早上吃一片。", "update", "zh", "剂量变化，无“现在”"),
    ("新版首页的上线日期定在6月30日。", "新版首页计划6月15日上线。", "update", "zh", "日期改定"),
    ("支付页改版交给小李负责了。", "小王负责支付页的改版。", "update", "zh", "负责人变更"),
    ("以后评审材料发PDF就行，不用再做PPT。", "评审材料要做成PPT。", "update", "zh", "偏好变化"),
    ("项目的 Python 版本升级到 3.12。", "项目使用 Python 3.10。", "update", "zh", "版本升级"),
    ("lint 统一用 `ruff check .`。", "用 `flake8` 做 lint。", "update", "zh", "工具替换，无变更词"),
    ("预发环境的地址是 pre.shop.internal。", "预发环境部署在 staging.shop.internal。", "update", "zh", "环境地址变化，无变更词"),

    # ---------------- Chinese: contradiction (10) ----------------
    ("儿子是2015年出生的。", "儿子出生于2017年。", "contradiction", "zh", "不可变的出生年份"),
    ("我们家的房子是2010年买的。", "房子是2013年购入的。", "contradiction", "zh", "过去的购买年份"),
    ("上周修洗衣机的师傅说是排水泵坏了。", "师傅上周检查后说洗衣机是电路板出了问题，排水泵没事。", "contradiction", "zh", "同一次维修的不同诊断"),
    ("豆豆是从朋友家抱来的。", "豆豆是在宠物店买的。", "contradiction", "zh", "宠物来源"),
    ("昨天的评审会是张总主持的。", "昨天的评审会由李经理主持，张总没来。", "contradiction", "zh", "同一次会议主持人不同"),
    ("客户在4月8日签了合同。", "合同是4月18日签的。", "contradiction", "zh", "签约日期只差一位"),
    ("上次的A/B实验，新版转化率提升了3%。", "上次的A/B实验新版转化率反而下降了。", "contradiction", "zh", "已结束实验的结果相反"),
    ("5月20日的故障是缓存雪崩导致的。", "5月20日那次事故的根因是数据库主从切换失败。", "contradiction", "zh", "故障根因"),
    ("v1.8.0 是在1月10日发布的。", "v1.8.0 的发布日期是1月17日。", "contradiction", "zh", "发布日期"),
    ("重试逻辑是小赵一个人写的。", "重试逻辑是老陈写的。", "contradiction", "zh", "代码作者"),

    # ---------------- Chinese: unrelated (10) ----------------
    ("儿子周六也有篮球课。", "儿子周六上午有数学补习。", "unrelated", "zh", "用“也”表示新增"),
    ("水费每月15号交。", "电费每月1号交。", "unrelated", "zh", "不同账单，句式相同"),
    ("咪咪对鱼过敏。", "豆豆对鸡肉过敏。", "unrelated", "zh", "不同宠物"),
    ("车的年检在九月。", "车险每年三月续保。", "unrelated", "zh", "同一辆车不同事项"),
    ("小王还负责支付页的埋点方案。", "小王负责支付页的改版。", "unrelated", "zh", "用“还”表示新增职责"),
    ("给投资人的汇报用深色模板。", "幻灯片统一用公司的浅色模板。", "unrelated", "zh", "更具体的情形，通用规则仍成立"),
    ("移动端的上线日期是7月1日。", "Web 端新版首页计划6月15日上线。", "unrelated", "zh", "不同端"),
    ("集成测试用 `make itest` 跑。", "用 `pytest -q` 跑单元测试。", "unrelated", "zh", "不同类型测试"),
    ("订单服务的数据库是 MySQL 8。", "订单服务归交易组维护。", "unrelated", "zh", "同一服务不同属性"),
    ("合并前还需要 CI 全部通过。", "合并到 main 之前至少要两个人 review 通过。", "unrelated", "zh", "新增合并规则"),
]
# fmt: on

BLIND_PAIRS_4: list[Pair] = [
    Pair(candidate, stored, label, "blind 4", language, held_out=True)
    for candidate, stored, label, language, _ in _ROWS
]
