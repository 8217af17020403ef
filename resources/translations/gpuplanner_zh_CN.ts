<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>GuiApplication</name>
    <message>
        <source>GPU Planner</source>
        <translation>GPU Planner 云端算力规划</translation>
    </message>
    <message>
        <source>User interface language: en or zh_CN.</source>
        <translation>界面语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>Catalog folder to use instead of the bundled one.</source>
        <translation>使用指定的目录数据文件夹，替代内置目录。</translation>
    </message>
    <message>
        <source>Write a PNG of each page into this folder, then quit.</source>
        <translation>把每个页面截图为 PNG 保存到该文件夹，然后退出。</translation>
    </message>
    <message>
        <source>Unknown language &quot;%1&quot;; supported: %2</source>
        <translation>不支持的语言“%1”；可选：%2</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::CatalogPage</name>
    <message>
        <source>Cloud GPU catalog</source>
        <translation>云 GPU 机型与价格</translation>
    </message>
    <message>
        <source>Every price and specification cites its source and date: select a row, or hover a price, to see them. &quot;unknown&quot; means no published price was found; none is guessed.</source>
        <translation>每个价格和规格都注明了来源和日期：选中一行，或把鼠标停在价格上即可查看。“未知”表示没有找到公开价格，我们不做估算。</translation>
    </message>
    <message>
        <source>Filter by provider, instance, GPU or region, e.g. A100</source>
        <translation>按云厂商、实例、GPU 或地域筛选，例如 A100</translation>
    </message>
    <message>
        <source>Shows only the rows where some column contains this text (case does not matter).</source>
        <translation>只显示某一列包含该文字的行（不区分大小写）。</translation>
    </message>
    <message>
        <source>The catalog could not be loaded: %1</source>
        <translation>目录加载失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>Showing %1 of %n offer row(s)</source>
        <translation>
            <numerusform>显示 %1 / 共 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a row to see where its figures come from.</source>
        <translation>选中一行，查看各项数据的来源。</translation>
    </message>
    <message>
        <source>Price: unknown. No published price was found; none is guessed.</source>
        <translation>价格：未知。没有找到公开价格，我们不做估算。</translation>
    </message>
    <message>
        <source>%1, %2: %3 — source: %4</source>
        <translation>%1，%2：%3 —— 来源：%4</translation>
    </message>
    <message>
        <source>Instance specifications: %1</source>
        <translation>实例规格：%1</translation>
    </message>
    <message>
        <source>GPU datasheet: %1</source>
        <translation>GPU 规格书：%1</translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>spot above on-demand</source>
        <translation>竞价价格高于按量价格</translation>
    </message>
    <message>
        <source>far from the usual price</source>
        <translation>价格明显偏离同类</translation>
    </message>
    <message>
        <source>old price</source>
        <translation>价格过旧</translation>
    </message>
    <message>
        <source>dated in the future</source>
        <translation>日期晚于今天</translation>
    </message>
    <message>
        <source>No exchange rate in the catalog: prices are shown in their own currency.</source>
        <translation>目录中没有汇率：价格按各自原币种显示。</translation>
    </message>
    <message>
        <source>1 USD = %1 CNY, set by you. Prices stay in their own currency in the catalog; &quot;≈&quot; marks a converted price.</source>
        <translation>1 美元 = %1 元（你设置的汇率）。目录里的价格仍保留原币种；带“≈”的是换算后的价格。</translation>
    </message>
    <message>
        <source>1 USD = %1 CNY as of %2 (%3). Prices stay in their own currency in the catalog; &quot;≈&quot; marks a converted price.</source>
        <translation>1 美元 = %1 元，%2 的汇率（%3）。目录里的价格仍保留原币种；带“≈”的是换算后的价格。</translation>
    </message>
    <message>
        <source>Left out — %1</source>
        <translation>已跳过 —— %1</translation>
    </message>
    <message>
        <source>Check — %1: %2</source>
        <translation>请核对 —— %1：%2</translation>
    </message>
    <message>
        <source>Catalog checks: every entry loaded and every price passed the checks.</source>
        <translation>目录检查：所有条目均已加载，所有价格都通过了检查。</translation>
    </message>
    <message numerus="yes">
        <source>Catalog checks: %n finding(s) to look at</source>
        <translation>
            <numerusform>目录检查：有 %n 项需要核对</numerusform>
        </translation>
    </message>
    <message>
        <source>Show prices in:</source>
        <translation>价格显示为：</translation>
    </message>
    <message>
        <source>their own currency</source>
        <translation>原币种</translation>
    </message>
    <message>
        <source>Converts the prices shown with the exchange rate at the right; the catalog keeps each price in the provider&apos;s own currency.</source>
        <translation>按右侧汇率换算显示的价格；目录中的价格始终保留云厂商的原币种。</translation>
    </message>
    <message>
        <source>1 USD = </source>
        <translation>1 美元 = </translation>
    </message>
    <message>
        <source> CNY</source>
        <translation> 元</translation>
    </message>
    <message>
        <source>The exchange rate used for display. Set today&apos;s rate if the catalog&apos;s is old.</source>
        <translation>用于显示换算的汇率。如果目录里的汇率过旧，可以改成当天的汇率。</translation>
    </message>
    <message>
        <source>Use catalog rate</source>
        <translation>恢复目录汇率</translation>
    </message>
    <message>
        <source>compliance: %1</source>
        <translation>合规认证：%1</translation>
    </message>
    <message numerus="yes">
        <source>billed per %1, minimum %n s</source>
        <translation>
            <numerusform>按%1计费，最少 %n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>From your own catalog: %1</source>
        <translation>来自你的自定义目录：%1</translation>
    </message>
    <message>
        <source>second</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>minute</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>小时</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::MainWindow</name>
    <message>
        <source>Plan</source>
        <translation>规划</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>方案对比</translation>
    </message>
    <message>
        <source>Costs</source>
        <translation>成本分析</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动实例</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例管理</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>GPU 验证</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation>机型与价格</translation>
    </message>
    <message>
        <source>Describe a training run step by step: task, model, data, precision, budget, deadline.</source>
        <translation>一步步描述训练任务：任务类型、模型、数据、精度、预算、截止时间。</translation>
    </message>
    <message>
        <source>Every offer ranked on time, cost and risk, with the reasons for the recommendation.</source>
        <translation>按时间、成本和风险给所有方案排序，并说明推荐理由。</translation>
    </message>
    <message>
        <source>Cost charts: by option, time against cost, renting against buying.</source>
        <translation>成本图表：各方案对比、时间与成本权衡、租用与自购对比。</translation>
    </message>
    <message>
        <source>Launch the chosen instance through the provider&apos;s API.</source>
        <translation>通过云厂商 API 启动选定的实例。</translation>
    </message>
    <message>
        <source>What is running, what it has cost so far, and a guard against forgotten instances.</source>
        <translation>查看正在运行的实例和已产生的费用，防止忘记关机白白烧钱。</translation>
    </message>
    <message>
        <source>Prove over SSH that the GPU and its mixed-precision speed are what was paid for.</source>
        <translation>通过 SSH 验证 GPU 型号和混合精度算力与付费规格一致。</translation>
    </message>
    <message>
        <source>PDF reports for the PI.</source>
        <translation>给导师的 PDF 报告。</translation>
    </message>
    <message>
        <source>Every GPU offer of the providers, with sourced and dated prices.</source>
        <translation>各云厂商的全部 GPU 机型，价格均注明来源和日期。</translation>
    </message>
    <message>
        <source>file not found</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>file cannot be read</source>
        <translation>文件无法读取</translation>
    </message>
    <message>
        <source>JSON syntax error</source>
        <translation>JSON 语法错误</translation>
    </message>
    <message>
        <source>invalid value</source>
        <translation>取值无效</translation>
    </message>
    <message>
        <source>unknown reference</source>
        <translation>引用不存在</translation>
    </message>
    <message>
        <source>unknown provider</source>
        <translation>未知云厂商</translation>
    </message>
    <message>
        <source>unknown GPU</source>
        <translation>未知 GPU</translation>
    </message>
    <message>
        <source>invalid argument</source>
        <translation>参数无效</translation>
    </message>
    <message>
        <source>Catalog problems</source>
        <translation>目录数据有问题</translation>
    </message>
    <message>
        <source>Some catalog entries could not be read and are left out. The rest of the catalog is loaded and works as usual.</source>
        <translation>部分目录条目无法读取，已跳过；其余目录已正常加载，可以照常使用。</translation>
    </message>
    <message>
        <source>The catalog could not be loaded.</source>
        <translation>目录加载失败。</translation>
    </message>
    <message>
        <source>GPU Planner</source>
        <translation>GPU Planner 云端算力规划</translation>
    </message>
    <message>
        <source>%1 (coming)</source>
        <translation>%1（即将推出）</translation>
    </message>
    <message>
        <source>Coming in a later version: %1</source>
        <translation>后续版本推出：%1</translation>
    </message>
    <message>
        <source>Loading the catalog…</source>
        <translation>正在加载目录……</translation>
    </message>
    <message>
        <source>Catalog: %1 GPU models, %2 offers from %3 providers; newest price %4</source>
        <translation>目录：%1 款 GPU，%3 家云厂商的 %2 个机型；价格最新日期 %4</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::OfferTableModel</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>on-demand, per hour</source>
        <translation>按量计费，每小时</translation>
    </message>
    <message>
        <source>spot, per hour</source>
        <translation>竞价实例，每小时</translation>
    </message>
    <message>
        <source>1-year reserved, per hour</source>
        <translation>1 年预留，折合每小时</translation>
    </message>
    <message>
        <source>3-year reserved, per hour</source>
        <translation>3 年预留，折合每小时</translation>
    </message>
    <message>
        <source>monthly subscription, per month</source>
        <translation>包月，每月</translation>
    </message>
    <message>
        <source>yearly subscription, per month</source>
        <translation>包年，折合每月</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>No published price was found for this offer; none is guessed.</source>
        <translation>没有找到该机型的公开价格，我们不做估算。</translation>
    </message>
    <message>
        <source>Datasheet: %1 (%2)</source>
        <translation>规格书：%1（%2）</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>GPU × count</source>
        <translation>GPU × 数量</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>vCPU</source>
        <translation>vCPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Price/hour</source>
        <translation>每小时价格</translation>
    </message>
    <message>
        <source>Price/month</source>
        <translation>每月价格</translation>
    </message>
    <message>
        <source>Price date</source>
        <translation>价格日期</translation>
    </message>
    <message numerus="yes">
        <source>%n regions</source>
        <translation>
            <numerusform>%n 个地域</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
Source: %2
Date: %3</source>
        <translation>%1
来源：%2
日期：%3</translation>
    </message>
    <message>
        <source>bare metal</source>
        <translation>裸金属</translation>
    </message>
    <message>
        <source>managed</source>
        <translation>托管服务</translation>
    </message>
    <message>
        <source>TPU</source>
        <translation>TPU</translation>
    </message>
    <message>
        <source>RDMA</source>
        <translation>RDMA</translation>
    </message>
    <message>
        <source>isolated option</source>
        <translation>可选物理隔离</translation>
    </message>
    <message>
        <source>MIG</source>
        <translation>MIG</translation>
    </message>
    <message>
        <source>your offer</source>
        <translation>你添加的机型</translation>
    </message>
    <message>
        <source>your price (overrides the catalog)</source>
        <translation>你的报价（覆盖目录价格）</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>特性</translation>
    </message>
</context>
</TS>
