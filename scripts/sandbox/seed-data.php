<?php
/**
 * The seed dataset (plain data; seed.php turns it into WordPress content).
 * Changing this file or seed.php invalidates the cached `seeded` snapshot.
 */
return [
    // 8 sections nested up to 3 levels (name => [description, children]), plus 2 deliberately empty ones.
    'categories' => [
        'News' => ['Current events and announcements.', [
            'World' => ['International news.', []],
            'Local' => ['News from around town.', []],
        ]],
        'Technology' => ['Software, hardware and everything digital.', [
            'Programming' => ['Writing code, languages and tools.', [
                'JavaScript' => ['The language of the web, including Node.js.', []],
                'Python' => ['Scripting, data science and more.', []],
                'Rust' => ['Systems programming without fear.', []],
            ]],
            'Hardware' => ['Devices and components.', [
                'Laptops' => ['Portable computers reviewed.', []],
                'Smartphones' => ['Phones and mobile platforms.', []],
            ]],
            'Artificial Intelligence' => ['Machine learning and language models.', []],
        ]],
        'Science' => ['Discoveries and research.', [
            'Physics' => ['From particles to planets.', [
                'Quantum Computing' => ['Qubits, gates and algorithms.', []],
            ]],
            'Biology' => ['Life sciences.', []],
            'Space' => ['Astronomy and space exploration.', []],
        ]],
        'Culture' => ['Arts and entertainment.', [
            'Books' => ['Reviews and reading lists.', []],
            'Film' => ['Cinema and streaming.', []],
            'Music' => ['Albums, concerts and instruments.', [
                'Jazz' => ['Improvisation and swing.', []],
                'Classical' => ['Orchestras, opera and chamber music.', []],
            ]],
        ]],
        'Sports' => ['Games, races and matches.', [
            'Football' => ['The beautiful game.', []],
            'Tennis' => ['Grand slams and club play.', []],
            'Running' => ['From 5k to ultramarathons.', []],
        ]],
        'Travel' => ['Trips, destinations and tips.', [
            'Europe' => ['Cities and landscapes of Europe.', []],
            'Asia' => ['Journeys across Asia.', []],
            'Guides' => ['Practical travel guides.', []],
        ]],
        'Food' => ['Cooking and eating.', [
            'Recipes' => ['Tested recipes.', [
                'Baking' => ['Bread, cakes and pastry.', []],
                'Vegetarian' => ['Meat-free cooking.', []],
            ]],
            'Restaurants' => ['Places worth a visit.', []],
        ]],
        'Business' => ['Companies and money.', [
            'Startups' => ['Founding and growing companies.', []],
            'Finance' => ['Markets and personal finance.', []],
        ]],
        'Announcements' => ['Site announcements (currently unused).', []],
        'Miscellaneous' => ['Everything else (currently unused).', []],
    ],
    // The last 5 are never used; a few near-duplicates (JS, Javascript Tips) for cleanup tasks.
    'tags' => [
        'JavaScript', 'TypeScript', 'Python', 'Rust', 'Go', 'Docker', 'Kubernetes', 'Linux', 'Open Source', 'Security',
        'Privacy', 'Performance', 'Testing', 'DevOps', 'Cloud', 'Databases', 'API', 'REST', 'GraphQL', 'WordPress',
        'PHP', 'CSS', 'HTML', 'Accessibility', 'Design', 'UX', 'Mobile', 'Android', 'iOS', 'AI',
        'Machine Learning', 'LLM', 'Data', 'Analytics', 'Climate', 'Energy', 'Health', 'Fitness', 'Marathon', 'Olympics',
        'Coffee', 'Wine', 'Photography', 'History', 'Philosophy', 'Economics', 'Remote Work', 'Productivity', 'Career', 'Tutorial',
        'Opinion', 'Review', 'How-To', 'Beginner', 'Advanced',
        'JS', 'Javascript Tips', 'Legacy', 'Old Stuff', 'Misc',
    ],
    'unusedTags' => 5,
    // Terms of the custom `genre` taxonomy registered by sandbox-mu-plugin.php.
    'genres' => ['Fiction', 'Non-fiction', 'Poetry', 'Mystery', 'Science Fiction', 'Fantasy', 'Biography', 'History', 'Horror', 'Romance', 'Essay', 'Thriller'],
    // role => display names; the admin from install.php comes on top.
    'people' => [
        'administrator' => ['Ada Lovelace', 'Grace Hopper'],
        'editor' => ['Margaret Hamilton', 'Katherine Johnson', 'Edsger Dijkstra', 'Barbara Liskov'],
        'author' => ['Alan Turing', 'Donald Knuth', 'Linus Torvalds', 'Guido van Rossum', 'Ken Thompson'],
        'contributor' => ['Dennis Ritchie', 'Bjarne Stroustrup', 'Anders Hejlsberg', 'Brendan Eich', 'Yukihiro Matsumoto'],
        'subscriber' => ['Tim Berners-Lee', 'Vint Cerf', 'Radia Perlman', 'Frances Allen', 'John McCarthy', 'Hedy Lamarr', 'Claude Shannon', 'Rasmus Lerdorf'],
    ],
    'postCount' => 220,
    'titleTemplates' => ['Getting started with %s', 'Ten things to know about %s', 'Why %s matters', 'A beginner\'s guide to %s', '%s: lessons learned',
        'The future of %s', 'Notes on %s', '%s explained', 'Common mistakes with %s', 'How we use %s', 'A week of %s'],
    // Post i gets status statusCycle[i % count]; future posts are dated 2030.
    'statusCycle' => ['publish', 'publish', 'publish', 'publish', 'publish', 'publish', 'draft', 'draft', 'pending', 'private', 'future'],
    // The shop fixture (sandbox mu-plugin: `product` type, hierarchical `product_cat`), seeded after
    // the posts so the ids above stay as they were. Product => [status, product categories];
    // two products have none (for "file the unfiled products" tasks).
    'productCategories' => [
        'Clothing' => ['Shirts', 'Shoes'],
        'Electronics' => ['Phones', 'Audio'],
        'Home' => [],
        'Sale' => [],
    ],
    'products' => [
        'Linen Shirt' => ['publish', ['Shirts']],
        'Oxford Shirt' => ['publish', ['Shirts', 'Sale']],
        'Trail Running Shoes' => ['publish', ['Shoes']],
        'Leather Boots' => ['draft', ['Shoes']],
        'Pocket Phone 5' => ['publish', ['Phones']],
        'Studio Headphones' => ['publish', ['Audio', 'Sale']],
        'Bluetooth Speaker' => ['pending', ['Audio']],
        'Ceramic Mug' => ['publish', []],
        'Wool Blanket' => ['private', []],
    ],
    // Extra genres with a few posts each, added after the products (ids above unchanged).
    'extraGenres' => ['Jazz' => 4, 'Sci-Fi' => 3],
];
